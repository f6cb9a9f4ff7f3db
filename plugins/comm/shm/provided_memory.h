// Memory the shm communicator provides for the buffers it reduces: one shared segment per
// allocation, a slice for each rank of the host, so that every rank can read every peer's
// buffer where it lies. Buffers there are reduced without copying them into the staging
// segment first (shm_allreduce.h, sum_in_place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "shared_segment.h"

namespace harness::plugins {

class ProvidedMemory {
 public:
  // Where a buffer lies in the provided memory: which allocation (counted from 1 in the
  // order every rank made them) and at which byte offset in this rank's slice.
  struct Place {
    std::uint64_t allocation = 0;  // 0: not in provided memory
    std::uint64_t offset = 0;
  };

  ProvidedMemory(int rank, int size) : rank_(rank), size_(size) {}

  // Collective over `group` (all on one host): this rank's slice of `bytes`, or
  // nullptr on every rank where the segment could not be made.
  void* allocate(plugin::Bootstrap& group, std::size_t bytes);
  // This rank's mapping goes; the peers keep theirs until they release their own slices.
  void release(void* memory);

  // The place of [data, data + bytes), inside one of this rank's slices, or allocation 0.
  Place find(const void* data, std::size_t bytes) const;
  // Rank `rank`'s byte at `place`.
  unsigned char* at(Place place, int rank) const;

 private:
  struct Allocation {
    std::uint64_t number;
    std::size_t stride;  // bytes between two ranks' slices
    std::size_t bytes;   // usable bytes of a slice
    std::unique_ptr<SharedSegment> segment;
    unsigned char* slice(int rank) const {
      return static_cast<unsigned char*>(segment->data()) + stride * static_cast<std::size_t>(rank);
    }
  };

  int rank_;
  int size_;
  std::uint64_t made_ = 0;
  std::vector<Allocation> allocations_;
};

}  // namespace harness::plugins
