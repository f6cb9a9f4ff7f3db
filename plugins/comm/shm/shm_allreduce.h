// Allreduce through a shared segment, without messages: each rank copies a chunk of its
// buffer into its slot (all but its own slice: that one only it sums), sums its slice over
// its own buffer and the peers' slots (reduce-scatter: each rank reads its peers' data
// directly) into the segment's result, and copies the other slices' sums back (allgather).
// Per rank and byte of a 2-rank allreduce: 2 bytes read, 2 written (a chunk in whole: 5.5). Chunks
// stay in cache. Ranks meet at sequence-numbered flags in the segment (spin, then yield): no MPI
// call on the hot path. Every element is summed by one rank, in rank order, so every rank gets the
// same bits.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/plugin/half_float.h"

namespace harness::plugins {

class ShmAllreduce {
 public:
  // The segment's size for `size` ranks and `chunk_bytes` per chunk.
  static std::size_t segment_bytes(int size, std::size_t chunk_bytes);

  ShmAllreduce(void* segment, int rank, int size, std::size_t chunk_bytes);

  // In-place sum over the ranks (any count: larger buffers go through in chunks).
  template <class T>
  void sum(T* data, std::size_t count);

  // Every rank has arrived.
  void barrier();

 private:
  struct alignas(64) Flag {
    std::atomic<std::uint64_t> epoch;
  };
  Flag& flag(int rank) const { return flags_[rank]; }
  unsigned char* slot(int rank) const;
  unsigned char* result() const;
  void arrive_and_wait();
  template <class T>
  void sum_slice(T* own, std::size_t begin, std::size_t end);

  Flag* flags_;
  unsigned char* data_;
  int rank_;
  int size_;
  std::size_t chunk_bytes_;
  std::uint64_t epoch_ = 0;
  std::vector<float> widened_;  // fp16/bf16 partial sums, in float
};

}  // namespace harness::plugins
