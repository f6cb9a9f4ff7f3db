#include "collective/collective_ops.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>

namespace harness {
namespace {

using plugin::Collective;

// Rank r's element i is ((r + 1) * (i % 13 + 1)) % 17: small integers, so every dtype
// represents the sums exactly and a wrong element cannot hide in rounding.
at::Tensor small_integers(std::int64_t count, int rank, const at::TensorOptions& options) {
  auto index = torch::arange(count, torch::TensorOptions().dtype(torch::kInt64));
  return (((index % 13) + 1) * (rank + 1) % 17).to(options);
}

// The sum over ranks of small_integers(count, r): 13 values tiled (cheap at 64 MB).
at::Tensor summed(std::int64_t count, const CollectiveCall& call) {
  constexpr std::int64_t kPeriod = 13;
  auto period = torch::zeros({kPeriod}, torch::kFloat64);
  for (int r = 0; r < call.ranks; ++r) period += small_integers(kPeriod, r, torch::kFloat64);
  if (call.reduce == plugin::ReduceOp::kAvg) period /= call.ranks;
  const std::int64_t repeats = (count + kPeriod - 1) / kPeriod;
  return period.repeat({repeats}).narrow(0, 0, count);
}

std::int64_t whole(std::int64_t count, int) { return count; }
std::int64_t block(std::int64_t count, int ranks) { return count / ranks; }

at::Tensor rank_data(std::int64_t count, const CollectiveCall& call,
                     const at::TensorOptions& options) {
  return small_integers(count, call.rank, options);
}

at::Tensor rank_block(std::int64_t count, const CollectiveCall& call,
                      const at::TensorOptions& options) {
  return small_integers(block(count, call.ranks), call.rank, options);
}

at::Tensor allreduce_expected(std::int64_t count, const CollectiveCall& call,
                              const at::TensorOptions& options) {
  return summed(count, call).to(options.device());
}

// Block `rank` of the sum.
at::Tensor reduce_scatter_expected(std::int64_t count, const CollectiveCall& call,
                                   const at::TensorOptions& options) {
  const std::int64_t size = block(count, call.ranks);
  return summed(count, call).narrow(0, call.rank * size, size).to(options.device());
}

// Every rank's block, in rank order.
at::Tensor allgather_expected(std::int64_t count, const CollectiveCall& call,
                              const at::TensorOptions& options) {
  std::vector<at::Tensor> blocks;
  for (int r = 0; r < call.ranks; ++r)
    blocks.push_back(small_integers(block(count, call.ranks), r, torch::kFloat64));
  return torch::cat(blocks).to(options.device());
}

at::Tensor broadcast_expected(std::int64_t count, const CollectiveCall& call,
                              const at::TensorOptions& options) {
  return small_integers(count, call.root, torch::kFloat64).to(options.device());
}

// Block i of the output is block `rank` of rank i's input.
at::Tensor alltoall_expected(std::int64_t count, const CollectiveCall& call,
                             const at::TensorOptions& options) {
  const std::int64_t size = block(count, call.ranks);
  std::vector<at::Tensor> blocks;
  for (int r = 0; r < call.ranks; ++r)
    blocks.push_back(
        small_integers(count, r, torch::kFloat64).narrow(0, call.rank * size, size));
  return torch::cat(blocks).to(options.device());
}

// Reduce-scatter then allgather: each rank sends and receives 2(n-1)/n of the buffer.
// A group of one moves no bytes between ranks, so its busbw is 0 for every collective (as
// nccl-tests' factors give for allreduce, reduce_scatter, allgather and alltoall); the analysis
// (scripts/harness_analysis/frames.py) leaves world 1 out of busbw for the same reason.
double allreduce_factor(int ranks) { return 2.0 * (ranks - 1) / ranks; }
// Each rank sends or receives (n-1)/n of the buffer.
double split_factor(int ranks) { return double(ranks - 1) / ranks; }
double broadcast_factor(int ranks) { return ranks > 1 ? 1.0 : 0.0; }

plugin::Status run_allreduce(plugin::Communicator& c, plugin::BufferView input, plugin::BufferView,
                             const CollectiveCall& call) {
  return c.allreduce(input, {call.reduce, nullptr});
}
plugin::Status run_reduce_scatter(plugin::Communicator& c, plugin::BufferView input,
                                  plugin::BufferView output, const CollectiveCall& call) {
  return c.reduce_scatter(input, output, {call.reduce, nullptr});
}
plugin::Status run_allgather(plugin::Communicator& c, plugin::BufferView input,
                             plugin::BufferView output, const CollectiveCall&) {
  return c.allgather(input, output, {});
}
plugin::Status run_broadcast(plugin::Communicator& c, plugin::BufferView input, plugin::BufferView,
                             const CollectiveCall& call) {
  return c.broadcast(input, call.root);
}
plugin::Status run_alltoall(plugin::Communicator& c, plugin::BufferView input,
                            plugin::BufferView output, const CollectiveCall&) {
  return c.alltoall(input, output, {});
}

const std::vector<CollectiveOp>& collective_ops() {
  static const std::vector<CollectiveOp> ops = {
      // collective, in_place, reduces, rooted
      {Collective::kAllreduce, true, true, false, &whole, &rank_data, &allreduce_expected,
       &allreduce_factor, &run_allreduce},
      {Collective::kReduceScatter, false, true, false, &block, &rank_data,
       &reduce_scatter_expected, &split_factor, &run_reduce_scatter},
      {Collective::kAllgather, false, false, false, &whole, &rank_block, &allgather_expected,
       &split_factor, &run_allgather},
      {Collective::kBroadcast, true, false, true, &whole, &rank_data, &broadcast_expected,
       &broadcast_factor, &run_broadcast},
      {Collective::kAlltoall, false, false, false, &whole, &rank_data, &alltoall_expected,
       &split_factor, &run_alltoall},
  };
  return ops;
}

}  // namespace

const CollectiveOp& collective_op(plugin::Collective collective) {
  for (const auto& op : collective_ops())
    if (op.collective == collective) return op;
  throw std::invalid_argument(std::string("no benchmark for ") + plugin::collective_name(collective));
}

std::string collectives_with(bool CollectiveOp::*flag) {
  std::vector<std::string> names;
  for (const auto& op : collective_ops())
    if (op.*flag) names.push_back(plugin::collective_name(op.collective));
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

std::int64_t message_count(const CollectiveOp& op, std::uint64_t bytes, std::size_t element_size,
                           int ranks) {
  const auto count = static_cast<std::int64_t>(bytes / element_size);
  return op.in_place ? count : count / ranks * ranks;
}

}  // namespace harness
