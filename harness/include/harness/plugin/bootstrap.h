// Bootstrap: how the ranks of a group find each other when a communicator joins it (API 5).
// The harness runs its ranks under MPI and hands a plugin an MPI bootstrap (mpi_bootstrap.h);
// PyTorch starts its ranks with torchrun and hands the harness's process group a c10d Store,
// which becomes a Store bootstrap (bindings/torch). A plugin that rendezvouses through this
// interface alone (exchanges segment names, addresses, process ids) runs under both; one that
// needs MPI as its transport checks GroupInit::comm and declines when there is none.
//
// What a plugin may assume: every rank of the group calls the same methods in the same order
// with the same sizes (as with MPI collectives); calls are slow (a Store bootstrap goes through
// a key-value server) and meant for joining, never for data a collective moves; a call that
// fails returns a Status and leaves the group unusable.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/plugin/status.h"

namespace harness::plugin {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;

  virtual int rank() const noexcept = 0;
  virtual int size() const noexcept = 0;
  // `all` (size() * bytes) receives every rank's `mine` (bytes), in rank order.
  virtual Status allgather(const void* mine, void* all, std::size_t bytes) noexcept = 0;
  // `data` (bytes) becomes root's on every rank.
  virtual Status broadcast(void* data, std::size_t bytes, int root) noexcept = 0;
  virtual Status barrier() noexcept = 0;
  // Where the group comes from ("MPI", "PyTorch c10d store"), for messages.
  virtual std::string describe() const { return {}; }
};

// Collective over the group: whether `mine` holds on any rank (a failure any rank met, so that
// every rank takes the same branch). A bootstrap that fails counts as true.
inline bool on_any_rank(Bootstrap& group, bool mine) {
  std::vector<unsigned char> all(static_cast<std::size_t>(group.size()));
  const unsigned char flag = mine ? 1 : 0;
  if (!group.allgather(&flag, all.data(), 1).is_ok()) return true;
  for (unsigned char each : all)
    if (each) return true;
  return false;
}

}  // namespace harness::plugin
