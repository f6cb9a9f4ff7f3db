#include "shm_allreduce.h"

#include "cross_memory.h"

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include <algorithm>
#include <cstring>
#include <utility>

#include "cross_memory.h"

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

// Provided memory is summed in blocks this size, which stay in the first-level cache.
constexpr std::size_t kBlockBytes = 16 * 1024;

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
bool ShmAllreduce::sum(T* data, std::size_t count) {
  flag(rank_).call = {Path::kStaged, 0, 0, count, sizeof(T)};
  if (count == 0) {
    const bool agreed = meet_and_agree();
    if (agreed) arrive_and_wait();  // every rank has read the calls before the next is published
    return agreed;
  }
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
    if (offset == 0) {
      if (!meet_and_agree()) return false;  // the calls are read before the next meeting
    } else {
      arrive_and_wait();  // every rank's chunk is in its slot
    }
    sum_slice<T>(chunk, begin, end);
    arrive_and_wait();  // every slice is summed
    const T* summed = reinterpret_cast<const T*>(result());
    std::memcpy(chunk, summed, begin * sizeof(T));
    std::memcpy(chunk + end, summed + end, (m - end) * sizeof(T));
  }
  return true;
}

template <class T>
void ShmAllreduce::sum_block(T* out, const std::vector<const T*>& in, std::size_t n) {
  if constexpr (kHalf<T>) {
    widened_.resize(n);
    for (int r = 0; r < size_; ++r) widen(widened_.data(), in[r], n, r > 0);
    narrow(out, widened_.data(), n);
  } else {
    // Summed in a block that stays in cache: `out` is one of the inputs (this rank's own).
    block_.resize(kBlockBytes / sizeof(double));
    T* sum = reinterpret_cast<T*>(block_.data());
    std::memcpy(sum, in[0], n * sizeof(T));
    for (int r = 1; r < size_; ++r) add_into(sum, in[r], n);
    std::memcpy(out, sum, n * sizeof(T));
  }
}

bool ShmAllreduce::meet_and_agree() {
  arrive_and_wait();
  for (int r = 1; r < size_; ++r) {
    if (!(flag(r).call == flag(0).call)) {
      arrive_and_wait();  // every rank has read the calls before any publishes its next one
      return false;
    }
  }
  return true;
}

template <class T>
bool ShmAllreduce::sum_in_place(const Call& call, const PeerBuffer& buffer) {
  flag(rank_).call = call;
  if (!meet_and_agree()) return false;  // every rank's data is in place and its call published
  std::vector<T*> peers(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) peers[r] = reinterpret_cast<T*>(buffer(r));
  const auto count = static_cast<std::size_t>(call.count);
  const std::size_t share = (count + size_ - 1) / static_cast<std::size_t>(size_);
  const auto slice = [&](int r) {
    const std::size_t begin = std::min(count, share * static_cast<std::size_t>(r));
    return std::make_pair(begin, std::min(count, begin + share));
  };
  // Reduce-scatter: this rank's slice, read from every rank's buffer in rank order.
  const auto [begin, end] = slice(rank_);
  const std::size_t per_block = kBlockBytes / sizeof(T);
  std::vector<const T*> in(peers.size());
  for (std::size_t i = begin; i < end; i += per_block) {
    for (int r = 0; r < size_; ++r) in[r] = peers[r] + i;
    sum_block<T>(peers[rank_] + i, in, std::min(per_block, end - i));
  }
  arrive_and_wait();  // every slice is summed in its owner's buffer
  // Allgather: the other slices from their owners.
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const auto [from, to] = slice(r);
    std::memcpy(peers[rank_] + from, peers[r] + from, (to - from) * sizeof(T));
  }
  arrive_and_wait();  // no peer reads this rank's buffer any more: the caller may change it
  return true;
}

template <class T>
bool ShmAllreduce::sum_by_cross_memory(T* data, std::size_t count, std::string* why) {
  Flag& mine = flag(rank_);
  mine.call = {Path::kCrossMemory, 0, 0, count, sizeof(T)};
  mine.pid = static_cast<std::uint64_t>(getpid());
  mine.address = reinterpret_cast<std::uintptr_t>(data);
  mine.failed = 0;
  if (!meet_and_agree()) {
    *why = "the ranks' calls differ";
    return false;
  }
  const auto ranks = static_cast<std::size_t>(size_);
  std::vector<std::pair<pid_t, std::uint64_t>> peers(ranks);
  for (int r = 0; r < size_; ++r)
    peers[r] = {static_cast<pid_t>(flag(r).pid), flag(r).address};
  const std::size_t share = (count + ranks - 1) / ranks;
  const auto slice = [&](int r) {
    const std::size_t begin = std::min(count, share * static_cast<std::size_t>(r));
    return std::make_pair(begin, std::min(count, begin + share));
  };
  // Reduce-scatter: the peers' parts of this rank's slice, a read block at a time.
  const std::size_t per_read = std::max<std::size_t>(1, chunk_bytes_ / sizeof(T));
  const std::size_t per_block = kBlockBytes / sizeof(T);
  scratch_.resize((ranks * per_read * sizeof(T) + sizeof(double) - 1) / sizeof(double));
  T* scratch = reinterpret_cast<T*>(scratch_.data());
  bool ok = true;
  const auto [begin, end] = slice(rank_);
  std::vector<const T*> in(ranks);
  for (std::size_t i = begin; ok && i < end; i += per_read) {
    const std::size_t n = std::min(per_read, end - i);
    for (int r = 0; ok && r < size_; ++r) {
      if (r == rank_) continue;
      T* block = scratch + static_cast<std::size_t>(r) * per_read;
      ok = read_from_process(peers[r].first, peers[r].second + i * sizeof(T), block,
                             n * sizeof(T));
    }
    for (std::size_t j = 0; ok && j < n; j += per_block) {
      for (int r = 0; r < size_; ++r)
        in[r] = (r == rank_ ? data + i : scratch + static_cast<std::size_t>(r) * per_read) + j;
      sum_block<T>(data + i + j, in, std::min(per_block, n - j));
    }
  }
  arrive_and_wait();  // every slice is summed in its owner's buffer
  // Allgather: the other slices' sums straight from their owners into this buffer.
  for (int r = 0; ok && r < size_; ++r) {
    if (r == rank_) continue;
    const auto [from, to] = slice(r);
    ok = read_from_process(peers[r].first, peers[r].second + from * sizeof(T), data + from,
                           (to - from) * sizeof(T));
  }
  if (!ok) *why = std::string("process_vm_readv: ") + std::strerror(errno);
  mine.failed = ok ? 0 : 1;
  arrive_and_wait();  // no peer reads this rank's buffer any more; every rank's verdict is in
  for (int r = 0; r < size_; ++r) {
    if (flag(r).failed && ok) {
      *why = "rank " + std::to_string(r) + " could not read its peers' memory";
      ok = false;
    }
  }
  return ok;
}

template bool ShmAllreduce::sum<float>(float*, std::size_t);
template bool ShmAllreduce::sum<double>(double*, std::size_t);
template bool ShmAllreduce::sum<plugin::Float16>(plugin::Float16*, std::size_t);
template bool ShmAllreduce::sum<plugin::BFloat16>(plugin::BFloat16*, std::size_t);
template bool ShmAllreduce::sum_in_place<float>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<double>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<plugin::Float16>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<plugin::BFloat16>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_by_cross_memory<float>(float*, std::size_t, std::string*);
template bool ShmAllreduce::sum_by_cross_memory<double>(double*, std::size_t, std::string*);
template bool ShmAllreduce::sum_by_cross_memory<plugin::Float16>(plugin::Float16*, std::size_t,
                                                                 std::string*);
template bool ShmAllreduce::sum_by_cross_memory<plugin::BFloat16>(plugin::BFloat16*,
                                                                  std::size_t, std::string*);

}  // namespace harness::plugins
