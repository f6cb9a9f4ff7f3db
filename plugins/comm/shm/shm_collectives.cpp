#include "shm_collectives.h"

#include <algorithm>
#include <cstring>

#include "harness/plugin/half_float.h"

namespace harness::plugins {
namespace {

// Which collective a call is, so that ranks calling different ones are caught at the meeting.
enum Kind : std::uint64_t { kReduceScatter = 1, kAllgather = 2, kAlltoall = 3, kBroadcast = 4 };

ShmAllreduce::Call call_of(Kind kind, std::size_t bytes, std::size_t element_bytes) {
  return {ShmAllreduce::Path::kStaged, kind, 0, bytes / element_bytes, element_bytes};
}

// The bytes of each block one round moves: `share` of a slot, whole elements, at least one.
std::size_t piece_bytes(std::size_t slot_bytes, std::size_t share, std::size_t element_bytes) {
  return std::max(element_bytes, slot_bytes / share / element_bytes * element_bytes);
}

std::size_t rounds_for(std::size_t block_bytes, std::size_t piece) {
  return (block_bytes + piece - 1) / piece;
}

}  // namespace

template <class T>
bool shm_reduce_scatter_sum(ShmAllreduce& shm, int rank, int size, const T* in, T* out,
                            std::size_t block) {
  const auto ranks = static_cast<std::size_t>(size);
  const std::size_t piece = piece_bytes(shm.slot_bytes(), ranks, sizeof(T)) / sizeof(T);
  const auto fill = [&](std::size_t round, unsigned char* slot) {
    const std::size_t at = round * piece, n = std::min(piece, block - at);
    for (std::size_t j = 0; j < ranks; ++j)
      std::memcpy(slot + j * piece * sizeof(T), in + j * block + at, n * sizeof(T));
  };
  const auto use = [&](std::size_t round, int r, const unsigned char* slot) {
    const std::size_t at = round * piece, n = std::min(piece, block - at);
    const T* part = reinterpret_cast<const T*>(slot) + static_cast<std::size_t>(rank) * piece;
    if (r == 0) {
      std::memcpy(out + at, part, n * sizeof(T));
    } else {
      for (std::size_t i = 0; i < n; ++i) out[at + i] += part[i];
    }
  };
  ShmAllreduce::Call call = call_of(kReduceScatter, block * ranks * sizeof(T), sizeof(T));
  call.element_type = ShmAllreduce::element_type<T>();
  return shm.exchange(call, rounds_for(block, piece), fill, use);
}

bool shm_allgather(ShmAllreduce& shm, int size, const unsigned char* in, unsigned char* out,
                   std::size_t block_bytes, std::size_t element_bytes) {
  const std::size_t piece = piece_bytes(shm.slot_bytes(), 1, element_bytes);
  const auto fill = [&](std::size_t round, unsigned char* slot) {
    const std::size_t at = round * piece;
    std::memcpy(slot, in + at, std::min(piece, block_bytes - at));
  };
  const auto use = [&](std::size_t round, int r, const unsigned char* slot) {
    const std::size_t at = round * piece;
    std::memcpy(out + static_cast<std::size_t>(r) * block_bytes + at, slot,
                std::min(piece, block_bytes - at));
  };
  return shm.exchange(
      call_of(kAllgather, block_bytes * static_cast<std::size_t>(size), element_bytes),
      rounds_for(block_bytes, piece), fill, use);
}

bool shm_alltoall(ShmAllreduce& shm, int rank, int size, const unsigned char* in,
                  unsigned char* out, std::size_t block_bytes, std::size_t element_bytes) {
  const auto ranks = static_cast<std::size_t>(size);
  const std::size_t piece = piece_bytes(shm.slot_bytes(), ranks, element_bytes);
  const auto fill = [&](std::size_t round, unsigned char* slot) {
    const std::size_t at = round * piece, n = std::min(piece, block_bytes - at);
    for (std::size_t j = 0; j < ranks; ++j)
      std::memcpy(slot + j * piece, in + j * block_bytes + at, n);
  };
  const auto use = [&](std::size_t round, int r, const unsigned char* slot) {
    const std::size_t at = round * piece, n = std::min(piece, block_bytes - at);
    std::memcpy(out + static_cast<std::size_t>(r) * block_bytes + at,
                slot + static_cast<std::size_t>(rank) * piece, n);
  };
  return shm.exchange(call_of(kAlltoall, block_bytes * ranks, element_bytes),
                      rounds_for(block_bytes, piece), fill, use);
}

bool shm_broadcast(ShmAllreduce& shm, int rank, int root, unsigned char* data, std::size_t bytes,
                   std::size_t element_bytes) {
  const std::size_t piece = piece_bytes(shm.slot_bytes(), 1, element_bytes);
  const auto fill = [&](std::size_t round, unsigned char* slot) {
    const std::size_t at = round * piece;
    if (rank == root) std::memcpy(slot, data + at, std::min(piece, bytes - at));
  };
  const auto use = [&](std::size_t round, int r, const unsigned char* slot) {
    const std::size_t at = round * piece;
    if (r == root && rank != root) std::memcpy(data + at, slot, std::min(piece, bytes - at));
  };
  ShmAllreduce::Call call = call_of(kBroadcast, bytes, element_bytes);
  call.offset = static_cast<std::uint64_t>(root);  // ranks naming different roots disagree
  return shm.exchange(call, rounds_for(bytes, piece), fill, use);
}

template bool shm_reduce_scatter_sum<float>(ShmAllreduce&, int, int, const float*, float*,
                                            std::size_t);
template bool shm_reduce_scatter_sum<double>(ShmAllreduce&, int, int, const double*, double*,
                                             std::size_t);
template bool shm_reduce_scatter_sum<plugin::Float16>(ShmAllreduce&, int, int,
                                                      const plugin::Float16*, plugin::Float16*,
                                                      std::size_t);
template bool shm_reduce_scatter_sum<plugin::BFloat16>(ShmAllreduce&, int, int,
                                                       const plugin::BFloat16*, plugin::BFloat16*,
                                                       std::size_t);

}  // namespace harness::plugins
