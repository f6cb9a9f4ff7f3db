// The textbook ring allreduce (Patarasuk & Yuan; what the Horovod tutorial's "Ring AllReduce"
// means) over point-to-point links (peer_links.h: MPI's, or TCP's without MPI): the buffer is cut
// into N segments; N-1 reduce-scatter steps each send one segment to the right neighbour and add
// the one from the left, leaving each rank with one fully reduced segment; N-1 allgather steps then
// pass the reduced segments around. Each segment moves in chunks so that adding chunk k overlaps
// receiving chunk k+1.
#pragma once

#include <cstddef>
#include <vector>

#include "harness/plugin/status.h"
#include "peer_links.h"

namespace harness::plugins {

struct RingOptions {
  std::size_t chunk_bytes = 256 * 1024;  // pipelining unit
};

struct RingGroup {
  int rank = 0, size = 1;
  PeerLinks* links = nullptr;
};

// In-place sum over the group. T is float, double, plugin::Float16 or plugin::BFloat16 (each
// addition rounded to the type). Returns the first link error, if any.
template <class T>
plugin::Status ring_allreduce_sum(T* data, std::size_t count, const RingGroup& group,
                                  const RingOptions& options, std::vector<T>* scratch);

// Its first half: afterwards segment `rank` of data (count / ranks elements when count is a
// multiple of the ranks) holds the sum; the other segments are left partial.
template <class T>
plugin::Status ring_reduce_scatter_sum(T* data, std::size_t count, const RingGroup& group,
                                       const RingOptions& options, std::vector<T>* scratch);

// Its second half: with segment `rank` of data filled on each rank, fills the others.
template <class T>
plugin::Status ring_allgather(T* data, std::size_t count, const RingGroup& group,
                              const RingOptions& options, std::vector<T>* scratch);

}  // namespace harness::plugins
