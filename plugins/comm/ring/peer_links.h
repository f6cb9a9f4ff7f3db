// How the ring's ranks send to each other: one pairwise exchange, the only primitive the ring,
// its halves and its alltoall need. Under the harness it is MPI point-to-point (mpi_links.h);
// in a group without MPI (PyTorch's) it is TCP connections between every pair of ranks,
// set up through the group's bootstrap (tcp_links.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "harness/plugin/status.h"

namespace harness::plugins {

class PeerLinks {
 public:
  virtual ~PeerLinks() = default;

  // Called as data arrives, with how many bytes of the receive have landed so far (in order):
  // the ring adds a chunk as soon as it is in, while the next one arrives.
  using Progress = std::function<void(std::size_t received)>;

  // Sends `send_bytes` from `send` to rank `to` while receiving `receive_bytes` into `receive`
  // from rank `from`; either side may be skipped with rank -1. `chunk_bytes` is the pipelining
  // unit. Both sides of a pair must make matching calls.
  virtual plugin::Status exchange(int to, const void* send, std::size_t send_bytes, int from,
                                  void* receive, std::size_t receive_bytes, std::size_t chunk_bytes,
                                  const Progress& progress) = 0;
  // What the exchanges that follow carry: a reduction's element type (any nonzero tag), or 0
  // for bytes moved as they are. Links that send a header with each message (TCP) make ranks
  // whose reductions add different types of one size (fp16 here, bf16 there) fail alike;
  // MPI's do not.
  virtual void set_element_tag(std::uint8_t tag) { static_cast<void>(tag); }
  // `data` (bytes) becomes rank root's on every rank.
  virtual plugin::Status broadcast(void* data, std::size_t bytes, int root) = 0;
  virtual plugin::Status barrier() = 0;
  virtual std::string describe() const = 0;  // "MPI point-to-point", "TCP"
};

}  // namespace harness::plugins
