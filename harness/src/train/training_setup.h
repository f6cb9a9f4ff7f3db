// Everything a train trial builds before its first step, besides the backend: the data and
// the model (seeded, on the backend's device).
#pragma once

#include <c10/core/Device.h>

#include <memory>

#include "record/record_parts.h"
#include "data/data_split.h"
#include "harness/plugin/model.h"
#include "loader/plugin_registry.h"
#include "spec/train_settings.h"
#include "trial/backend_join.h"
#include "trial/trial_context.h"

namespace harness {

struct TrainingSetup {
  const DataSplit* data = nullptr;
  const PluginHandle* model_plugin = nullptr;
  std::shared_ptr<plugin::Model> model;
  c10::Device device = c10::kCPU;
};

// Throws on any problem (the caller agrees on it with the group).
TrainingSetup set_up_training(const TrainSettings& settings, std::uint64_t seed,
                              const TrialContext& context, const JoinedBackend& backend);

// The record's model and data parts.
ModelRecord describe_model(const TrainingSetup& setup);
DataRecord describe_data(const DataSplit& data);

}  // namespace harness
