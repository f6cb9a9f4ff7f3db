#include "shm_allreduce.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "cross_memory.h"
#include "vector_sum.h"

namespace harness::plugins {
namespace {

constexpr std::size_t kAlignment = 64;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

// Direct paths sum in blocks this size, which stay in the first-level cache.
constexpr std::size_t kBlockBytes = 16 * 1024;

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

// The flags; a slot per rank and the result (a chunk each); two one-shot halves per rank.
std::size_t ShmAllreduce::segment_bytes(int size, std::size_t chunk_bytes) {
  const auto ranks = static_cast<std::size_t>(size);
  return aligned(sizeof(Flag) * ranks) + (ranks + 1) * aligned(chunk_bytes) +
         2 * ranks * aligned(chunk_bytes / 2);
}

ShmAllreduce::ShmAllreduce(void* segment, int rank, int size, std::size_t chunk_bytes,
                           WaitPolicy wait)
    : flags_(static_cast<Flag*>(segment)),
      data_(static_cast<unsigned char*>(segment) +
            aligned(sizeof(Flag) * static_cast<std::size_t>(size))),
      rank_(rank),
      size_(size),
      chunk_bytes_(chunk_bytes),
      inputs_(static_cast<std::size_t>(size)),
      wait_(wait) {}

unsigned char* ShmAllreduce::slot(int rank) const {
  return data_ + static_cast<std::size_t>(rank) * aligned(chunk_bytes_);
}

unsigned char* ShmAllreduce::result() const { return slot(size_); }

// Apart from the slots: a one-shot call leaves without a meeting after its reads, so a rank's
// next staged call, which fills its slot before meeting, must not write where a slower peer
// may still be reading.
unsigned char* ShmAllreduce::one_shot_part(int rank, std::size_t half) const {
  return slot(size_ + 1) + (2 * static_cast<std::size_t>(rank) + half) * aligned(one_shot_bytes());
}

void ShmAllreduce::arrive_and_wait() {
  ++epoch_;
  flag(rank_).epoch.store(epoch_, std::memory_order_seq_cst);
  announce_arrival(flag(rank_).signal);
  for (int r = 0; r < size_; ++r)
    wait_for_peer(flag(r).signal, wait_, [&] {
      return flag(r).epoch.load(std::memory_order_seq_cst) >= epoch_;
    });
}

void ShmAllreduce::barrier() { arrive_and_wait(); }

// Elements [begin, end) of the chunk — this rank's slice — summed in rank order: the peers'
// values from their slots, this rank's own from its buffer (`own`, the chunk's start). The
// sum goes to the result region for the peers and into this rank's buffer.
template <class T>
void ShmAllreduce::sum_slice(T* own, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  T* out = reinterpret_cast<T*>(result()) + begin;
  for (int r = 0; r < size_; ++r)
    inputs_[r] = (r == rank_ ? own : reinterpret_cast<const T*>(slot(r))) + begin;
  sum_inputs(own + begin, n);  // into this rank's own buffer, one of the inputs
  // Copied afterwards, not stored from the same registers: a loop storing to both ran at half
  // the speed.
  std::memcpy(out, own + begin, n * sizeof(T));
}

template <class T>
bool ShmAllreduce::sum(T* data, std::size_t count) {
  flag(rank_).call = {Path::kStaged, 0, 0, count, sizeof(T), 0, element_type<T>()};
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
bool ShmAllreduce::sum_one_shot(T* data, std::size_t count) {
  const std::size_t half = one_shot_calls_ % 2;
  Call& call = flag(rank_).one_shot_call[half];
  call = {Path::kOneShot, 0, 0, count, sizeof(T), epoch_ + 1, element_type<T>()};
  const auto part = [&](int r) {
    return reinterpret_cast<T*>(one_shot_part(r, half));
  };
  if (count > 0) std::memcpy(part(rank_), data, count * sizeof(T));  // data may be null
  arrive_and_wait();  // every rank's buffer is in its half-slot, its call published
  for (int r = 0; r < size_; ++r) {
    // The other half's calls are the ones peers may be publishing now; these stay put until
    // every rank has passed the next meeting.
    if (!(flag(r).one_shot_call[half] == call)) {
      arrive_and_wait();  // every rank has seen the disagreement before any calls again
      return false;
    }
  }
  ++one_shot_calls_;
  for (int r = 0; r < size_; ++r) inputs_[r] = part(r);
  sum_inputs(data, count);
  return true;
}

// The `n` elements at inputs_, summed in rank order into `out` (which may be one of them).
template <class T>
void ShmAllreduce::sum_inputs(T* out, std::size_t n) {
  if constexpr (kHalf<T>) {
    // Summed in float and rounded once: every rank's result is the same bits either way.
    widened_.resize(n);
    for (int r = 0; r < size_; ++r)
      widen(widened_.data(), static_cast<const T*>(inputs_[r]), n, r > 0);
    narrow(out, widened_.data(), n);
  } else {
    sum_of(out, inputs_.data(), size_, n);
  }
}

bool ShmAllreduce::exchange(const Call& call, std::size_t rounds, const Fill& fill,
                            const Use& use) {
  flag(rank_).call = call;
  if (!meet_and_agree()) return false;  // the calls are read before the next meeting
  if (rounds == 0) arrive_and_wait();   // ... and before the next call is published
  for (std::size_t round = 0; round < rounds; ++round) {
    fill(round, slot(rank_));
    arrive_and_wait();  // every rank's part is in its slot
    for (int r = 0; r < size_; ++r) use(round, r, slot(r));
    arrive_and_wait();  // every rank has read: the slots may be refilled
  }
  return true;
}

bool ShmAllreduce::meet_and_agree() {
  flag(rank_).call.meeting = epoch_ + 1;
  arrive_and_wait();
  for (int r = 1; r < size_; ++r) {
    if (!(flag(r).call == flag(0).call)) {
      arrive_and_wait();  // every rank has read the calls before any publishes its next one
      return false;
    }
  }
  return true;
}

// Chunk by chunk, so that what one rank writes the others read while it is still in cache:
// this rank's slice of the chunk summed from every rank's data in rank order into its own
// buffer (reduce-scatter), a meeting, then the other slices' sums copied from their owners
// (allgather). A rank moves on to the next chunk without waiting: nothing it writes there is
// read by a peer still in this one. After the last chunk every rank's verdict is shared.
template <class T>
bool ShmAllreduce::sum_direct(T* own, std::size_t count, const PeerAccess<T>& peers) {
  const auto ranks = static_cast<std::size_t>(size_);
  const std::size_t per_chunk = std::max<std::size_t>(1, chunk_bytes_ / sizeof(T));
  const std::size_t per_block = kBlockBytes / sizeof(T);
  const std::size_t most_share = (per_chunk + ranks - 1) / ranks;
  scratch_.resize((ranks * most_share * sizeof(T) + sizeof(double) - 1) / sizeof(double));
  T* scratch = reinterpret_cast<T*>(scratch_.data());
  std::vector<const T*> in(ranks);
  bool ok = true;
  for (std::size_t offset = 0; offset < count; offset += per_chunk) {
    const std::size_t m = std::min(per_chunk, count - offset);
    const std::size_t share = (m + ranks - 1) / ranks;
    const auto slice = [&](int r) {
      const std::size_t begin = std::min(m, share * static_cast<std::size_t>(r));
      return std::make_pair(offset + begin, offset + std::min(m, begin + share));
    };
    const auto [begin, end] = slice(rank_);
    for (int r = 0; ok && r < size_; ++r) {
      in[r] =
          r == rank_ ? own + begin : peers.read(r, begin, end - begin, scratch + r * most_share);
      ok = in[r] != nullptr;
    }
    for (std::size_t j = begin; ok && j < end; j += per_block) {
      for (int r = 0; r < size_; ++r) inputs_[r] = in[r] + (j - begin);
      sum_inputs(own + j, std::min(per_block, end - j));
    }
    arrive_and_wait();  // every slice of this chunk is summed in its owner's buffer
    for (int r = 0; ok && r < size_; ++r) {
      if (r == rank_) continue;
      const auto [from, to] = slice(r);
      ok = peers.copy(r, from, to - from, own + from);
    }
  }
  flag(rank_).failed = ok ? 0 : 1;
  arrive_and_wait();  // no peer reads this rank's buffer any more; every rank's verdict is in
  for (int r = 0; r < size_; ++r)
    if (flag(r).failed) return false;
  return true;
}

template <class T>
bool ShmAllreduce::sum_in_place(const Call& call, const PeerBuffer& buffer) {
  flag(rank_).call = call;
  if (!meet_and_agree()) return false;  // every rank's data is in place and its call published
  std::vector<const T*> peers(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) peers[r] = reinterpret_cast<const T*>(buffer(r));
  PeerAccess<T> access;
  access.read = [&](int r, std::size_t begin, std::size_t, T*) {
    return peers[r] + begin;
  };
  access.copy = [&](int r, std::size_t begin, std::size_t n, T* to) {
    std::memcpy(to, peers[r] + begin, n * sizeof(T));
    return true;
  };
  return sum_direct<T>(reinterpret_cast<T*>(buffer(rank_)), call.count, access);
}

template <class T>
bool ShmAllreduce::sum_by_cross_memory(T* data, std::size_t count, std::string* why) {
  Flag& mine = flag(rank_);
  mine.call = {Path::kCrossMemory, 0, 0, count, sizeof(T), 0, element_type<T>()};
  mine.pid = static_cast<std::uint64_t>(getpid());
  mine.address = reinterpret_cast<std::uintptr_t>(data);
  if (!meet_and_agree()) {
    *why = "the ranks' calls differ";
    return false;
  }
  std::vector<std::pair<pid_t, std::uint64_t>> peers(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) peers[r] = {static_cast<pid_t>(flag(r).pid), flag(r).address};
  PeerAccess<T> access;
  access.copy = [&](int r, std::size_t begin, std::size_t n, T* to) {
    if (read_from_process(peers[r].first, peers[r].second + begin * sizeof(T), to, n * sizeof(T)))
      return true;
    *why = std::string("process_vm_readv from rank ") + std::to_string(r) + ": " +
           std::strerror(errno);
    return false;
  };
  access.read = [&](int r, std::size_t begin, std::size_t n, T* scratch) -> const T* {
    return access.copy(r, begin, n, scratch) ? scratch : nullptr;
  };
  if (sum_direct<T>(data, count, access)) return true;
  if (why->empty()) *why = "another rank could not read its peers' memory";
  return false;
}

template bool ShmAllreduce::sum<float>(float*, std::size_t);
template bool ShmAllreduce::sum<double>(double*, std::size_t);
template bool ShmAllreduce::sum<plugin::Float16>(plugin::Float16*, std::size_t);
template bool ShmAllreduce::sum<plugin::BFloat16>(plugin::BFloat16*, std::size_t);
template bool ShmAllreduce::sum_one_shot<float>(float*, std::size_t);
template bool ShmAllreduce::sum_one_shot<double>(double*, std::size_t);
template bool ShmAllreduce::sum_one_shot<plugin::Float16>(plugin::Float16*, std::size_t);
template bool ShmAllreduce::sum_one_shot<plugin::BFloat16>(plugin::BFloat16*, std::size_t);
template bool ShmAllreduce::sum_in_place<float>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<double>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<plugin::Float16>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_in_place<plugin::BFloat16>(const Call&, const PeerBuffer&);
template bool ShmAllreduce::sum_by_cross_memory<float>(float*, std::size_t, std::string*);
template bool ShmAllreduce::sum_by_cross_memory<double>(double*, std::size_t, std::string*);
template bool ShmAllreduce::sum_by_cross_memory<plugin::Float16>(plugin::Float16*, std::size_t,
                                                                 std::string*);
template bool ShmAllreduce::sum_by_cross_memory<plugin::BFloat16>(plugin::BFloat16*, std::size_t,
                                                                  std::string*);

}  // namespace harness::plugins
