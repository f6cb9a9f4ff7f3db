// The settings of a replay trial, typed: a PyTorch DDP job captured by scripts/tune (job.json)
// replayed on the harness's ranks under another backend, bucket cap or compression. The member
// initialisers are the defaults; replay_settings.cpp declares each field's name, range and help.
#pragma once

#include <cstdint>
#include <string>

#include "common/json.h"
#include "harness/tune/file_formats.h"
#include "spec/plugin_join.h"
#include "spec/quiet_gate_settings.h"
#include "spec/schema.h"
#include "spec/train_settings.h"

namespace harness {

struct ReplaySettings {
  std::string job;  // the captured job.json
  int world_size = 1;
  std::string backend = "torch_gloo";
  Json backend_params = Json::object();
  PluginJoin join = PluginJoin::kMpi;
  double bucket_cap_mb = tune_files::kDdpDefaultBucketCapMb;
  Compression compression = Compression::kNone;
  std::uint64_t warmup_steps = 3;
  std::uint64_t min_steps = 10;
  double min_time_s = 1;
  std::uint64_t max_steps = 100000;
  double noise_cv_threshold = 0.5;
  double slow_step_factor = 10;
  QuietGateSettings quiet;
};

// The fields of "settings" for experiments of kind "replay", derived from the declaration.
const Schema& replay_settings_schema();

// From validated, defaults-filled settings of kind "replay".
ReplaySettings parse_replay_settings(const Json& settings);

}  // namespace harness
