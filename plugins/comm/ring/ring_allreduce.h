// The textbook ring allreduce (Patarasuk & Yuan; what the Horovod tutorial's "Ring AllReduce"
// means) over MPI point-to-point: the buffer is cut into N segments; N-1 reduce-scatter steps each
// send one segment to the right neighbour and add the one from the left, leaving each rank with one
// fully reduced segment; N-1 allgather steps then pass the reduced segments around. Each
// segment moves in chunks so that adding chunk k overlaps receiving chunk k+1.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace harness::plugins {

struct RingOptions {
  std::size_t chunk_bytes = 256 * 1024;  // pipelining unit
};

// In-place sum over comm. T is float, double, plugin::Float16 or plugin::BFloat16 (each
// addition rounded to the type). Returns MPI_SUCCESS or the first MPI error.
template <class T>
int ring_allreduce_sum(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                       std::vector<T>* scratch);

// Its first half: afterwards segment `rank` of data (count / ranks elements when count is a
// multiple of the ranks) holds the sum; the other segments are left partial.
template <class T>
int ring_reduce_scatter_sum(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                            std::vector<T>* scratch);

// Its second half: with segment `rank` of data filled on each rank, fills the others.
template <class T>
int ring_allgather(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                   std::vector<T>* scratch);

}  // namespace harness::plugins
