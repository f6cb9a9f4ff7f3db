// The collectives the benchmark can time, one row each (nccl-tests' per-collective files in
// one table): how many bytes a count of elements moves, each rank's input, the expected
// result, the bus-bandwidth factor (doc/PERFORMANCE.md of nccl-tests), and the call itself.
// A broadcast or allgather benchmark is one more row.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/plugin/communicator.h"

namespace harness {

struct CollectiveOp {
  const char* name;
  // Bytes in one rank's buffer for `count` elements of `element_size` bytes.
  std::uint64_t (*bytes_for_count)(std::uint64_t count, std::size_t element_size, int ranks);
  // Rank `rank`'s input: deterministic, so a wrong element cannot hide.
  at::Tensor (*init_data)(int64_t count, int rank, const at::TensorOptions& options);
  // What every rank's buffer must hold afterwards, in float64 on options' device.
  at::Tensor (*expected)(int64_t count, int ranks, plugin::ReduceOp reduce,
                         const at::TensorOptions& options);
  // busbw = algbw * bus_factor(ranks): comparable to the links' bandwidth.
  double (*bus_factor)(int ranks);
  plugin::Status (*run)(plugin::Communicator& communicator, plugin::BufferView buffer,
                        plugin::ReduceOp reduce);
};

// The row named `name`; throws std::invalid_argument for an unknown one.
const CollectiveOp& collective_op(const std::string& name);

}  // namespace harness
