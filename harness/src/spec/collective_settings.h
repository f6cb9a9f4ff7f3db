// The settings of a collective-benchmark trial, typed. The member initialisers are the
// defaults; collective_settings.cpp declares each field's name, range and help once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/types.h"
#include "spec/quiet_gate_settings.h"
#include "spec/schema.h"

namespace harness {

// How one timed sample is taken: a loop of back-to-back calls divided by their number (the
// standard tools' method), or one call after a barrier (a distribution per call).
enum class CollectiveTiming { kLoop, kPerIteration };

const char* collective_timing_name(CollectiveTiming timing);

struct CollectiveSettings {
  plugin::Collective collective = plugin::Collective::kAllreduce;
  int root = 0;  // broadcast's
  int world_size = 1;
  std::string backend = "mpi";
  Json backend_params = Json::object();
  std::uint64_t min_bytes = 4, max_bytes = 64 << 20;  // the range, as given
  std::uint64_t step_factor = 2;
  std::vector<std::uint64_t> sizes;  // explicit sizes, as given; empty: the range
  // Derived: the sizes measured, whole elements each, and whether they are the explicit ones.
  std::vector<std::uint64_t> message_bytes;
  bool explicit_sizes = false;
  plugin::DType dtype = plugin::DType::kFloat32;
  plugin::ReduceOp reduce = plugin::ReduceOp::kSum;
  int warmup_iters = 5;
  int iters = 20;           // timed samples per size, at least
  double min_time_s = 0.1;  // timed seconds per size, at least
  int max_iters = 100000;
  CollectiveTiming timing = CollectiveTiming::kLoop;
  double noise_cv_threshold = 0.5;
  QuietGateSettings quiet;
  bool check = true;  // verify results against deterministic per-rank data (#wrong)
};

// The fields of "settings" for experiments of kind "collective", derived from the declaration.
const Schema& collective_settings_schema();

// From validated, defaults-filled settings of kind "collective".
CollectiveSettings parse_collective_settings(const Json& settings);

}  // namespace harness
