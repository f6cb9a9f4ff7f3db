// Reduce-scatter, allgather, alltoall and broadcast through the shared segment's slots
// (ShmAllreduce::exchange): in each round every rank puts a piece of each block it sends into
// its slot and reads what it receives from every rank's slot, so the data cross once, through
// memory, with no MPI call. Sums run in rank order, so every rank's block has the same bits
// whatever the rank. Each returns false, on every rank alike and with nothing written, when the
// ranks' calls differ.
#pragma once

#include <cstddef>

#include "shm_allreduce.h"

namespace harness::plugins {

// `in` holds size blocks of `block` elements; rank r's `out` gets the sum of block r.
template <class T>
bool shm_reduce_scatter_sum(ShmAllreduce& shm, int rank, int size, const T* in, T* out,
                            std::size_t block);

// Block r of `out` (size blocks of `block_bytes`) gets rank r's `in`.
bool shm_allgather(ShmAllreduce& shm, int size, const unsigned char* in, unsigned char* out,
                   std::size_t block_bytes, std::size_t element_bytes);

// Block j of this rank's `in` goes to rank j; block r of `out` comes from rank r.
bool shm_alltoall(ShmAllreduce& shm, int rank, int size, const unsigned char* in,
                  unsigned char* out, std::size_t block_bytes, std::size_t element_bytes);

// `data` (bytes) becomes rank root's on every rank.
bool shm_broadcast(ShmAllreduce& shm, int rank, int root, unsigned char* data, std::size_t bytes,
                   std::size_t element_bytes);

}  // namespace harness::plugins
