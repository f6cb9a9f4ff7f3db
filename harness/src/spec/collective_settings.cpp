#include "spec/collective_settings.h"

#include <stdexcept>

namespace harness {
namespace {

// Explicit "sizes" as given (validation refuses sizes that are no whole number of elements),
// or the range min_bytes, min_bytes * step_factor, ... up to max_bytes, the same sizes for
// every dtype so that they compare size by size; a size that is no whole number of elements
// (4 B in fp64) is left out. Empty when nothing is left (validation says so).
std::vector<std::uint64_t> message_bytes(const Json& s, std::uint64_t element_bytes) {
  std::vector<std::uint64_t> sizes;
  if (!s.at("sizes").empty()) return s.at("sizes").get<std::vector<std::uint64_t>>();
  const auto max = s.at("max_bytes").get<std::uint64_t>();
  const auto factor = s.at("step_factor").get<std::uint64_t>();
  for (auto size = s.at("min_bytes").get<std::uint64_t>(); size <= max; size *= factor)
    if (size % element_bytes == 0) sizes.push_back(size);
  return sizes;
}

}  // namespace

const char* collective_timing_name(CollectiveTiming timing) {
  return timing == CollectiveTiming::kLoop ? "loop" : "per_iteration";
}

plugin::DType parse_dtype(const std::string& name) {
  if (name == "fp32") return plugin::DType::kFloat32;
  if (name == "fp64") return plugin::DType::kFloat64;
  if (name == "fp16") return plugin::DType::kFloat16;
  if (name == "bf16") return plugin::DType::kBFloat16;
  throw std::invalid_argument("unknown dtype \"" + name + "\"");
}

CollectiveSettings parse_collective_settings(const Json& s) {
  CollectiveSettings c;
  c.world_size = s.at("world_size").get<int>();
  c.backend = s.at("backend").get<std::string>();
  c.backend_params = s.at("backend_params");
  c.dtype = parse_dtype(s.at("dtype").get<std::string>());
  c.explicit_sizes = !s.at("sizes").empty();
  c.message_bytes = message_bytes(s, plugin::dtype_size(c.dtype));
  c.min_bytes = s.at("min_bytes").get<std::uint64_t>();
  c.max_bytes = s.at("max_bytes").get<std::uint64_t>();
  c.reduce = s.at("op") == "avg" ? plugin::ReduceOp::kAvg : plugin::ReduceOp::kSum;
  c.warmup_iters = s.at("warmup_iters").get<int>();
  c.iters = s.at("iters").get<int>();
  c.min_time_s = s.at("min_time_s").get<double>();
  c.max_iters = s.at("max_iters").get<int>();
  c.timing =
      s.at("timing") == "per_iteration" ? CollectiveTiming::kPerIteration : CollectiveTiming::kLoop;
  c.noise_cv_threshold = s.at("noise_cv_threshold").get<double>();
  c.quiet = parse_quiet_gate_settings(s);
  c.check = s.at("check").get<bool>();
  return c;
}

}  // namespace harness
