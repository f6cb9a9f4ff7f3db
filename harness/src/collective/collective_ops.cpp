#include "collective/collective_ops.h"

#include <torch/torch.h>

#include <stdexcept>

namespace harness {
namespace {

// Rank r's element i is ((r + 1) * (i % 13 + 1)) % 17: small integers, so every dtype
// represents the sums exactly and a wrong element cannot hide in rounding.
at::Tensor small_integers(int64_t count, int rank, const at::TensorOptions& options) {
  auto index = torch::arange(count, torch::TensorOptions().dtype(torch::kInt64));
  return (((index % 13) + 1) * (rank + 1) % 17).to(options);
}

// The data repeat every 13 elements, so the sums are 13 values tiled (cheap at 64 MB).
at::Tensor allreduce_expected(int64_t count, int ranks, plugin::ReduceOp reduce,
                              const at::TensorOptions& options) {
  constexpr int64_t kPeriod = 13;
  auto period = torch::zeros({kPeriod}, torch::kFloat64);
  for (int r = 0; r < ranks; ++r) period += small_integers(kPeriod, r, torch::kFloat64);
  if (reduce == plugin::ReduceOp::kAvg) period /= ranks;
  const int64_t repeats = (count + kPeriod - 1) / kPeriod;
  return period.repeat({repeats}).narrow(0, 0, count).to(options.device());
}

std::uint64_t one_buffer(std::uint64_t count, std::size_t element_size, int /*ranks*/) {
  return count * element_size;
}

// Reduce-scatter then allgather: each rank sends and receives 2(n-1)/n of the buffer.
double allreduce_bus_factor(int ranks) { return ranks > 1 ? 2.0 * (ranks - 1) / ranks : 1.0; }

plugin::Status run_allreduce(plugin::Communicator& communicator, plugin::BufferView buffer,
                             plugin::ReduceOp reduce) {
  return communicator.allreduce(buffer, {reduce, nullptr});
}

const std::vector<CollectiveOp>& collective_ops() {
  static const std::vector<CollectiveOp> ops = {
      {"allreduce", &one_buffer, &small_integers, &allreduce_expected, &allreduce_bus_factor,
       &run_allreduce},
  };
  return ops;
}

}  // namespace

const CollectiveOp& collective_op(const std::string& name) {
  for (const auto& op : collective_ops())
    if (name == op.name) return op;
  throw std::invalid_argument("unknown collective \"" + name + "\"");
}

}  // namespace harness
