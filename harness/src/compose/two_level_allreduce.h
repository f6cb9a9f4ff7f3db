// The allreduce of the hierarchical backend over its two levels, as NCCL and Horovod split one
// by level: within each host the intra communicator sums the buffer, across hosts the inter
// communicator sums one block of it among the ranks with the same local rank, and within each
// host the blocks are shared again. The levels' groups are formed and joined by the caller
// (over MPI in the harness's command, over the c10d store inside PyTorch).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/plugin/communicator.h"

namespace harness {

struct Levels {
  plugin::Communicator* within = nullptr;  // this host's ranks, joined
  plugin::Communicator* across = nullptr;  // the ranks of this local rank on every host, joined
  int local_rank = 0;
  int local_size = 1;  // the same on every host
  int size = 1;        // the whole group
};

class TwoLevelAllreduce {
 public:
  // Asks the within-host communicator (collectively, alike on every rank) whether it offers
  // reduce_scatter, and so whether the allreduce goes by halves.
  explicit TwoLevelAllreduce(Levels levels);

  plugin::Status run(plugin::BufferView buffer, const plugin::AllreduceOptions& options);

  // How the level within hosts runs, as records name it.
  std::string within_hosts() const {
    return by_halves_ ? "reduce_scatter+allgather" : "allreduce";
  }

 private:
  plugin::Status by_halves(const plugin::BufferView& buffer, const plugin::AllreduceOptions& options);
  plugin::Status by_passes(const plugin::BufferView& buffer, const plugin::AllreduceOptions& options);
  void divide(const plugin::BufferView& buffer) const;

  Levels levels_;
  bool by_halves_ = false;
  std::vector<unsigned char> block_;  // this rank's block between the halves
};

}  // namespace harness
