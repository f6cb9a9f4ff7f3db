#include "shm_allreduce.h"

#include <sched.h>

#include <algorithm>
#include <cstring>

namespace harness::plugins {
namespace {

constexpr std::size_t kAlignment = 64;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Short waits spin (a peer a few microseconds behind); long ones give the core away, which
// matters when ranks share cores.
constexpr unsigned kSpinsBeforeYield = 4000;

// out[i] += in[i]: one loop the compiler vectorises.
template <class T>
void add_into(T* __restrict out, const T* __restrict in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] += in[i];
}

void widen(float* __restrict out, const plugin::Float16* in, std::size_t n, bool add) {
  for (std::size_t i = 0; i < n; ++i) out[i] = (add ? out[i] : 0.0f) + plugin::to_float(in[i]);
}
void widen(float* __restrict out, const plugin::BFloat16* in, std::size_t n, bool add) {
  for (std::size_t i = 0; i < n; ++i) out[i] = (add ? out[i] : 0.0f) + plugin::to_float(in[i]);
}
void narrow(plugin::Float16* out, const float* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = plugin::to_float16(in[i]);
}
void narrow(plugin::BFloat16* out, const float* in, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = plugin::to_bfloat16(in[i]);
}

template <class T>
constexpr bool kHalf = std::is_same_v<T, plugin::Float16> || std::is_same_v<T, plugin::BFloat16>;

}  // namespace

std::size_t ShmAllreduce::segment_bytes(int size, std::size_t chunk_bytes) {
  return aligned(sizeof(Flag) * static_cast<std::size_t>(size)) +
         (static_cast<std::size_t>(size) + 1) * aligned(chunk_bytes);
}

ShmAllreduce::ShmAllreduce(void* segment, int rank, int size, std::size_t chunk_bytes)
    : flags_(static_cast<Flag*>(segment)),
      data_(static_cast<unsigned char*>(segment) +
            aligned(sizeof(Flag) * static_cast<std::size_t>(size))),
      rank_(rank),
      size_(size),
      chunk_bytes_(chunk_bytes) {}

unsigned char* ShmAllreduce::slot(int rank) const {
  return data_ + static_cast<std::size_t>(rank) * aligned(chunk_bytes_);
}

unsigned char* ShmAllreduce::result() const { return slot(size_); }

void ShmAllreduce::arrive_and_wait() {
  ++epoch_;
  flag(rank_).epoch.store(epoch_, std::memory_order_release);
  for (int r = 0; r < size_; ++r) {
    unsigned spins = 0;
    while (flag(r).epoch.load(std::memory_order_acquire) < epoch_) {
      if (++spins < kSpinsBeforeYield)
        cpu_relax();
      else
        sched_yield();
    }
  }
}

void ShmAllreduce::barrier() { arrive_and_wait(); }

// Elements [begin, end) of the chunk — this rank's slice — summed in rank order: the peers'
// values from their slots, this rank's own from its buffer (`own`, the chunk's start). The
// sum goes to the result region for the peers and into this rank's buffer.
template <class T>
void ShmAllreduce::sum_slice(T* own, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  T* out = reinterpret_cast<T*>(result()) + begin;
  const auto in = [&](int r) -> const T* {
    return (r == rank_ ? own : reinterpret_cast<const T*>(slot(r))) + begin;
  };
  if constexpr (kHalf<T>) {
    // Summed in float and rounded once: every rank's result is the same bits either way.
    widened_.resize(n);
    for (int r = 0; r < size_; ++r) widen(widened_.data(), in(r), n, r > 0);
    narrow(out, widened_.data(), n);
  } else {
    std::memcpy(out, in(0), n * sizeof(T));
    for (int r = 1; r < size_; ++r) add_into(out, in(r), n);
  }
  std::memcpy(own + begin, out, n * sizeof(T));
}

template <class T>
void ShmAllreduce::sum(T* data, std::size_t count) {
  const std::size_t per_chunk = std::max<std::size_t>(1, chunk_bytes_ / sizeof(T));
  const auto ranks = static_cast<std::size_t>(size_);
  for (std::size_t offset = 0; offset < count; offset += per_chunk) {
    T* chunk = data + offset;
    const std::size_t m = std::min(per_chunk, count - offset);
    const std::size_t share = (m + ranks - 1) / ranks;
    const std::size_t begin = std::min(m, share * static_cast<std::size_t>(rank_));
    const std::size_t end = std::min(m, begin + share);
    // Into the slot goes only what the peers sum: every slice but this rank's own. A slot is
    // refilled only after the last chunk's second meeting (every slice summed), the result
    // rewritten only after this chunk's first (every copy-out of the last one done).
    T* mine = reinterpret_cast<T*>(slot(rank_));
    std::memcpy(mine, chunk, begin * sizeof(T));
    std::memcpy(mine + end, chunk + end, (m - end) * sizeof(T));
    arrive_and_wait();  // every rank's chunk is in its slot
    sum_slice<T>(chunk, begin, end);
    arrive_and_wait();  // every slice is summed
    const T* summed = reinterpret_cast<const T*>(result());
    std::memcpy(chunk, summed, begin * sizeof(T));
    std::memcpy(chunk + end, summed + end, (m - end) * sizeof(T));
  }
}

template void ShmAllreduce::sum<float>(float*, std::size_t);
template void ShmAllreduce::sum<double>(double*, std::size_t);
template void ShmAllreduce::sum<plugin::Float16>(plugin::Float16*, std::size_t);
template void ShmAllreduce::sum<plugin::BFloat16>(plugin::BFloat16*, std::size_t);

}  // namespace harness::plugins
