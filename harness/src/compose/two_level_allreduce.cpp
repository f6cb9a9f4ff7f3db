#include "compose/two_level_allreduce.h"

#include <algorithm>
#include <cstring>

#include "harness/plugin/half_float.h"
#include "harness/plugin/types.h"

namespace harness {
namespace {

// Sets every element outside [begin, end) to +0: summing the hosts' disjoint slices within
// the host then gives each slice's value exactly.
void keep_only(const plugin::BufferView& buffer, std::size_t begin, std::size_t end) {
  auto* bytes = static_cast<unsigned char*>(buffer.data);
  const std::size_t size = plugin::dtype_size(buffer.dtype);
  std::memset(bytes, 0, begin * size);
  std::memset(bytes + end * size, 0, (buffer.count - end) * size);
}

}  // namespace

TwoLevelAllreduce::TwoLevelAllreduce(Levels levels) : levels_(levels) {
  // An empty reduce-scatter asks the intra plugin whether it offers the collective (the
  // answer is its capabilities', the same on every rank).
  const plugin::BufferView none{nullptr, 0, plugin::DType::kFloat32};
  by_halves_ = levels_.local_size > 1 && levels_.within->reduce_scatter(none, none, {}).is_ok();
}

plugin::Status TwoLevelAllreduce::run(plugin::BufferView buffer,
                                      const plugin::AllreduceOptions& options) {
  plugin::Status status = by_halves_ ? by_halves(buffer, options) : plugin::Status::unsupported("");
  if (status.code() == plugin::StatusCode::kUnsupported) status = by_passes(buffer, options);
  if (status.is_ok() && options.op == plugin::ReduceOp::kAvg) divide(buffer);
  return status;
}

// Within the host a reduce-scatter (local rank r holds block r of the host's sum), across
// hosts an allreduce of that block among the ranks of the same local rank, within the host an
// allgather: each byte crosses the host's memory and the network once each way. Unsupported
// (on every rank alike) when the buffer does not split into whole blocks; run() then goes by
// passes.
plugin::Status TwoLevelAllreduce::by_halves(const plugin::BufferView& buffer,
                                            const plugin::AllreduceOptions& options) {
  const auto ranks = static_cast<std::size_t>(levels_.local_size);
  if (buffer.count == 0 || buffer.count % ranks != 0 || buffer.device != plugin::DeviceKind::kCpu)
    return plugin::Status::unsupported("no whole blocks");
  const plugin::CollectiveOptions sum{plugin::ReduceOp::kSum, options.stream};
  block_.resize(buffer.bytes() / ranks);
  plugin::BufferView block = buffer;
  block.data = block_.data();
  block.count = buffer.count / ranks;
  block.device = plugin::DeviceKind::kCpu;
  if (plugin::Status s = levels_.within->reduce_scatter(buffer, block, sum); !s.is_ok()) return s;
  if (plugin::Status s = levels_.across->allreduce(block, {sum.op, sum.stream}); !s.is_ok())
    return s;
  return levels_.within->allgather(block, buffer, sum);
}

// With allreduce alone: within the host, across hosts on this rank's slice, and within the
// host again with every other slice zeroed (an allgather by sums).
plugin::Status TwoLevelAllreduce::by_passes(const plugin::BufferView& buffer,
                                            const plugin::AllreduceOptions& options) {
  const plugin::AllreduceOptions sum{plugin::ReduceOp::kSum, options.stream};
  if (plugin::Status s = levels_.within->allreduce(buffer, sum); !s.is_ok()) return s;
  if (buffer.count == 0) return plugin::Status::ok();
  const auto ranks = static_cast<std::size_t>(levels_.local_size);
  const std::size_t share = (buffer.count + ranks - 1) / ranks;
  const std::size_t begin =
      std::min(buffer.count, share * static_cast<std::size_t>(levels_.local_rank));
  const std::size_t end = std::min(buffer.count, begin + share);
  plugin::BufferView slice = buffer;
  slice.data = static_cast<unsigned char*>(buffer.data) + begin * plugin::dtype_size(buffer.dtype);
  slice.count = end - begin;
  if (plugin::Status s = levels_.across->allreduce(slice, sum); !s.is_ok()) return s;
  if (levels_.local_size > 1) {
    keep_only(buffer, begin, end);
    if (plugin::Status s = levels_.within->allreduce(buffer, sum); !s.is_ok()) return s;
  }
  return plugin::Status::ok();
}

void TwoLevelAllreduce::divide(const plugin::BufferView& buffer) const {
  const int size = levels_.size;
  switch (buffer.dtype) {
    case plugin::DType::kFloat32:
      return plugin::divide_in_place(static_cast<float*>(buffer.data), buffer.count, size);
    case plugin::DType::kFloat64:
      return plugin::divide_in_place(static_cast<double*>(buffer.data), buffer.count, size);
    case plugin::DType::kFloat16:
      return plugin::divide_in_place(static_cast<plugin::Float16*>(buffer.data), buffer.count,
                                     size);
    case plugin::DType::kBFloat16:
      return plugin::divide_in_place(static_cast<plugin::BFloat16*>(buffer.data), buffer.count,
                                     size);
  }
}

}  // namespace harness
