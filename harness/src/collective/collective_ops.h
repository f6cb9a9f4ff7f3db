// The collectives the benchmark can time, one row each (nccl-tests' per-collective files in
// one table): each rank's input and output counts for a message of `count` elements in total
// (nccl-tests' sizes: the whole buffer; a rank's block is count / ranks), each rank's input,
// the expected output, the bus-bandwidth factor (doc/PERFORMANCE.md of nccl-tests), and the
// call itself.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/plugin/communicator.h"

namespace harness {

// Who takes part and how: the group's size, this rank, the reduction and broadcast's root.
struct CollectiveCall {
  int ranks = 1;
  int rank = 0;
  plugin::ReduceOp reduce = plugin::ReduceOp::kSum;
  int root = 0;
};

struct CollectiveOp {
  plugin::Collective collective;
  // allreduce and broadcast work in place on the whole message: the output is the input
  // buffer. The others split it into one block per rank.
  bool in_place;
  // Whether the call reads the settings' op (it reduces) and root (one rank's data goes out).
  bool reduces;
  bool rooted;
  // Elements of one rank's output for a message of `count` elements in total.
  std::int64_t (*output_count)(std::int64_t count, int ranks);
  // This rank's input (its size is the input's count): deterministic, so a wrong element
  // cannot hide.
  at::Tensor (*init_data)(std::int64_t count, const CollectiveCall& call,
                          const at::TensorOptions& options);
  // What this rank's output must hold afterwards, in float64 on options' device.
  at::Tensor (*expected)(std::int64_t count, const CollectiveCall& call,
                         const at::TensorOptions& options);
  // busbw = algbw * bus_factor(ranks): comparable to the links' bandwidth.
  double (*bus_factor)(int ranks);
  plugin::Status (*run)(plugin::Communicator& communicator, plugin::BufferView input,
                        plugin::BufferView output, const CollectiveCall& call);
};

const CollectiveOp& collective_op(plugin::Collective collective);

// The collectives whose `flag` is set, for messages: "allreduce and reduce_scatter".
std::string collectives_with(bool CollectiveOp::*flag);

// The total elements a message of `bytes` holds for this collective over `ranks`: whole
// elements, and for the collectives that split it a multiple of the ranks, rounded down as
// nccl-tests rounds (0 when the message holds less than one element per rank).
std::int64_t message_count(const CollectiveOp& op, std::uint64_t bytes, std::size_t element_size,
                           int ranks);

}  // namespace harness
