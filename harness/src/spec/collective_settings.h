// The settings of a collective-benchmark trial, typed. Fields, defaults and ranges are in
// spec/collective_schema.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/types.h"
#include "spec/quiet_gate_settings.h"

namespace harness {

// How one timed sample is taken: a loop of back-to-back calls divided by their number (the
// standard tools' method), or one call after a barrier (a distribution per call).
enum class CollectiveTiming { kLoop, kPerIteration };

const char* collective_timing_name(CollectiveTiming timing);

struct CollectiveSettings {
  int world_size = 1;
  std::string backend = "mpi";
  Json backend_params = Json::object();
  std::vector<std::uint64_t> message_bytes;           // the sizes measured, whole elements each
  bool explicit_sizes = false;                        // from "sizes" (else the min/max/step range)
  std::uint64_t min_bytes = 4, max_bytes = 64 << 20;  // the range, as given
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

plugin::DType parse_dtype(const std::string& name);  // throws std::invalid_argument

// From validated, defaults-filled settings of kind "collective".
CollectiveSettings parse_collective_settings(const Json& settings);

}  // namespace harness
