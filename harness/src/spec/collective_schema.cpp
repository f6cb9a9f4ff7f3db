#include "spec/collective_schema.h"

#include "spec/quiet_gate_settings.h"

namespace harness {

const Schema& collective_settings_schema() {
  using T = FieldType;
  const double inf = std::numeric_limits<double>::infinity();
  // One field per entry, kept as a table.
  // clang-format off
  static const Schema schema = with_quiet_gate({
      {"world_size", T::kInteger, 1, 1, 65536, false, {}, "ranks in the trial's group"},
      {"backend", T::kString, "mpi", -inf, inf, false, {}, "communicator plugin name"},
      {"backend_params", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "parameters passed to the communicator plugin"},
      {"min_bytes", T::kInteger, 4, 1, 1e12, false, {},
       "smallest message, in bytes; the range's sizes are the same for every dtype, and a size "
       "that is no whole number of dtype's elements (4 B in fp64) is left out"},
      {"max_bytes", T::kInteger, 64 << 20, 1, 1e12, false, {}, "largest message, in bytes"},
      {"step_factor", T::kInteger, 2, 2, 1024, false, {},
       "each message size is the previous one times this"},
      {"sizes", T::kIntegerList, Json::array(), 1, 1e12, false, {},
       "explicit message sizes in bytes, each a whole number of dtype's elements and listed "
       "once; when non-empty, replaces min_bytes, max_bytes and step_factor (not given then)"},
      {"dtype", T::kString, "fp32", -inf, inf, false, {"fp32", "fp64", "fp16", "bf16"},
       "element type"},
      {"op", T::kString, "sum", -inf, inf, false, {"sum", "avg"}, "reduction"},
      {"warmup_iters", T::kInteger, 5, 0, 1e9, false, {}, "untimed iterations per size"},
      {"iters", T::kInteger, 20, 1, 1e9, false, {},
       "timed samples per size, at least (more until min_time_s is reached)"},
      {"min_time_s", T::kNumber, 0.1, 0, 86400, false, {},
       "timed seconds per size, at least (Google Benchmark's min_time)"},
      {"max_iters", T::kInteger, 100000, 1, 1e9, false, {}, "cap on the timed samples per size"},
      {"timing", T::kString, "loop", -inf, inf, false, {"loop", "per_iteration"},
       "loop: each sample is a loop of back-to-back calls divided by their number (IMB, OSU, "
       "nccl-tests); per_iteration: each sample is one call started after a barrier (its "
       "distribution, barrier-exit skew included)"},
      {"noise_cv_threshold", T::kNumber, 0.5, 0, 1e6, false, {},
       "mark a size (and its trial) noisy when the cv of its samples exceeds this"},
      {"check", T::kBoolean, true, -inf, inf, false, {},
       "verify results against deterministic per-rank data (#wrong)"},
  });
  // clang-format on
  return schema;
}

}  // namespace harness
