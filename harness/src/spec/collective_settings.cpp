#include "spec/collective_settings.h"

#include "spec/settings_table.h"

namespace harness {
namespace {

// The element types' words, from the plugin API's one table of them.
struct DTypeChoices {
  EnumChoice<plugin::DType> rows[std::size(plugin::kElementTypes)];
};
constexpr DTypeChoices dtype_choices() {
  DTypeChoices choices{};
  for (std::size_t i = 0; i < std::size(plugin::kElementTypes); ++i)
    choices.rows[i] = {plugin::kElementTypes[i].name, plugin::kElementTypes[i].dtype};
  return choices;
}
constexpr DTypeChoices kDTypes = dtype_choices();
const EnumChoice<plugin::ReduceOp> kReduceOps[] = {{"sum", plugin::ReduceOp::kSum},
                                                   {"avg", plugin::ReduceOp::kAvg}};
const EnumChoice<plugin::Collective> kCollectives[] = {
    {"allreduce", plugin::Collective::kAllreduce},
    {"reduce_scatter", plugin::Collective::kReduceScatter},
    {"allgather", plugin::Collective::kAllgather},
    {"broadcast", plugin::Collective::kBroadcast},
    {"alltoall", plugin::Collective::kAlltoall}};
const EnumChoice<CollectiveTiming> kTimings[] = {
    {"loop", CollectiveTiming::kLoop}, {"per_iteration", CollectiveTiming::kPerIteration}};

// Each collective setting, declared once. Rows appear in this order in the experiment reference.
const SettingsTable<CollectiveSettings>& collective_table() {
  using S = CollectiveSettings;
  static const auto table =
      SettingsTable<S>()
          .add_choice("collective", &S::collective, kCollectives,
                      "the collective timed; a message size is the whole buffer, as in "
                      "nccl-tests: reduce_scatter's input, allgather's output, alltoall's "
                      "input and output, each rank's block size / world_size")
          .add("root", &S::root, "broadcast's root rank (refused beside another collective)",
               {0, 65535})
          .add("world_size", &S::world_size, "ranks in the trial's group", {1, 65536})
          .add("backend", &S::backend, "communicator plugin name")
          .add("backend_params", &S::backend_params, "parameters passed to the communicator plugin")
          .add("min_bytes", &S::min_bytes,
               "smallest message, in bytes; the range's sizes are the same for every dtype, and "
               "a size that is no whole number of dtype's elements (4 B in fp64) is left out",
               {1, 1e12})
          .add("max_bytes", &S::max_bytes, "largest message, in bytes", {1, 1e12})
          .add("step_factor", &S::step_factor, "each message size is the previous one times this",
               {2, 1024})
          .add("sizes", &S::sizes,
               "explicit message sizes in bytes, each a whole number of dtype's elements and "
               "listed once; when non-empty, replaces min_bytes, max_bytes and step_factor (not "
               "given then)",
               {1, 1e12})
          .add_choice("dtype", &S::dtype, kDTypes.rows, "element type")
          .add_choice("op", &S::reduce, kReduceOps,
                      "the reduction of allreduce and reduce_scatter (refused beside another "
                      "collective)")
          .add("warmup_iters", &S::warmup_iters, "untimed iterations per size", {0, 1e9})
          .add("iters", &S::iters,
               "timed samples per size, at least (more until min_time_s is reached)", {1, 1e9})
          .add("min_time_s", &S::min_time_s,
               "timed seconds per size, at least (Google Benchmark's min_time)", {0, 86400})
          .add("max_iters", &S::max_iters, "cap on the timed samples per size; at least iters",
               {1, 1e9})
          .add_choice("timing", &S::timing, kTimings,
                      "loop: each sample is a loop of back-to-back calls divided by their number "
                      "(IMB, OSU, nccl-tests); per_iteration: each sample is one call started "
                      "after a barrier (its distribution, barrier-exit skew included)")
          .add("noise_cv_threshold", &S::noise_cv_threshold,
               "mark a size (and its trial) noisy when the cv of its samples exceeds this",
               {0, 1e6})
          .add("check", &S::check, "verify results against deterministic per-rank data (#wrong)")
          .add_part("", &S::quiet, quiet_gate_settings_table());
  return table;
}

// Explicit "sizes" as given (validation refuses sizes that are no whole number of elements),
// or the range min_bytes, min_bytes * step_factor, ... up to max_bytes, the same sizes for
// every dtype so that they compare size by size; a size that is no whole number of elements
// (4 B in fp64) is left out. Empty when nothing is left (validation says so).
std::vector<std::uint64_t> message_bytes(const CollectiveSettings& c) {
  if (!c.sizes.empty()) return c.sizes;
  const std::uint64_t element_bytes = plugin::dtype_size(c.dtype);
  std::vector<std::uint64_t> sizes;
  for (auto size = c.min_bytes; size <= c.max_bytes; size *= c.step_factor)
    if (size % element_bytes == 0) sizes.push_back(size);
  return sizes;
}

}  // namespace

const Schema& collective_settings_schema() {
  static const Schema schema = collective_table().schema();
  return schema;
}

const char* collective_timing_name(CollectiveTiming timing) {
  return choice_word(timing, kTimings);
}

CollectiveSettings parse_collective_settings(const Json& settings) {
  CollectiveSettings c = collective_table().parse(settings);
  c.explicit_sizes = !c.sizes.empty();
  c.message_bytes = message_bytes(c);
  return c;
}

}  // namespace harness
