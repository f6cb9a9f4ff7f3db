// Allreduce through a shared segment, without messages. Buffers in any memory: each rank copies
// a chunk of its buffer into its slot (all but its own slice: that one only it sums), sums its
// slice over its own buffer and the peers' slots (reduce-scatter: each rank reads its peers' data
// directly) into the segment's result, and copies the other slices' sums back (allgather).
// Per rank and byte of a 2-rank allreduce: 2 bytes read, 2 written. Chunks stay in cache. Ranks
// meet at sequence-numbered flags in the segment (spin, then sleep: peer_wait.h): no MPI call on
// the hot path.
// Every element is summed by one rank, in rank order, so every rank gets the same bits.
//
// Small buffers take one meeting instead of two (sum_one_shot): each rank copies its whole buffer
// into a part of the segment of its own and, once every rank has, sums all ranks' parts in rank
// order itself (the same bits on every rank, as every rank adds the same values in the same
// order). A rank has two such parts and alternates between them from one such call to the next,
// so it refills one only after the next call's meeting, when every peer has read it; no other
// path writes them.
//
// Buffers in memory the communicator provided (every rank's buffer mapped by every rank) can
// skip staging (the communicator's in_place): chunk by chunk, each rank sums its slice straight
// from the peers' buffers into its own and copies the other slices' sums from their owners'
// buffers. Large buffers in any memory can go the same way through Linux cross-memory attach
// (cross_memory.h): each rank reads its peers' slices of a chunk out of their address spaces into a
// scratch that stays in cache, and the other slices' sums straight into its buffer.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/plugin/half_float.h"
#include "peer_wait.h"

namespace harness::plugins {

class ShmAllreduce {
 public:
  // The segment's size for `size` ranks and `chunk_bytes` per chunk.
  static std::size_t segment_bytes(int size, std::size_t chunk_bytes);

  ShmAllreduce(void* segment, int rank, int size, std::size_t chunk_bytes, WaitPolicy wait = {});

  // In-place sum over the ranks (any count: larger buffers go through in chunks). False, on
  // every rank alike and with nothing changed, when the ranks' counts or paths differ.
  template <class T>
  bool sum(T* data, std::size_t count);

  // The same sum in one meeting, for buffers of at most one_shot_bytes(); false like sum().
  template <class T>
  bool sum_one_shot(T* data, std::size_t count);
  std::size_t one_shot_bytes() const { return chunk_bytes_ / 2; }

  // How a call reduces; every rank must take the same path.
  enum class Path : std::uint64_t { kStaged, kProvided, kCrossMemory, kOneShot };
  // What a rank's call reduces (allocation and offset: where in provided memory); every rank
  // must pass the same.
  struct Call {
    Path path = Path::kStaged;
    std::uint64_t allocation = 0;
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
    std::uint64_t element_bytes = 0;
    // The meeting the call was published for (set by the meeting): a peer's call left from an
    // earlier meeting, on another path, never passes for agreement.
    std::uint64_t meeting = 0;
    // A reduction's element type (element_type<T>()); 0 for a move, whose bytes are any type's.
    std::uint64_t element_type = 0;
    bool operator==(const Call& other) const {
      return path == other.path && allocation == other.allocation && offset == other.offset &&
             count == other.count && element_bytes == other.element_bytes &&
             meeting == other.meeting && element_type == other.element_type;
    }
  };
  // What a reduction adds, told apart across ranks: types of one size (fp16 and bf16) differ.
  template <class T>
  static constexpr std::uint64_t element_type() {
    return sizeof(T) | (std::is_floating_point<T>::value ? 0x100 : 0) |
           (std::is_same<T, plugin::BFloat16>::value ? 0x200 : 0);
  }
  // Rank r's buffer for this call.
  using PeerBuffer = std::function<unsigned char*(int rank)>;

  // In-place sum of buffers every rank can read (provided memory). False, on every rank
  // alike and with nothing changed, when the ranks' calls differ.
  template <class T>
  bool sum_in_place(const Call& call, const PeerBuffer& buffer);

  // In-place sum of buffers in any memory through cross-memory attach (every rank's
  // process_vm_readv probed first). False on every rank alike when the calls differ or any
  // rank's read failed (`why` says which).
  template <class T>
  bool sum_by_cross_memory(T* data, std::size_t count, std::string* why);

  // Every rank has arrived.
  void barrier();

  // The staged exchange the other collectives go through (shm_collectives.h), in rounds: in
  // round k, `fill(k, slot)` writes this rank's part into its own slot (slot_bytes() of it);
  // once every rank has, `use(k, r, slot)` reads rank r's slot for r = 0, 1, ... in order; every
  // rank has read before any refills. `call` (count and element size) must be the same on every
  // rank: the first meeting checks it and returns false on every rank alike, nothing read, when
  // it is not.
  using Fill = std::function<void(std::size_t round, unsigned char* own_slot)>;
  using Use = std::function<void(std::size_t round, int rank, const unsigned char* slot)>;
  bool exchange(const Call& call, std::size_t rounds, const Fill& fill, const Use& use);
  std::size_t slot_bytes() const { return chunk_bytes_; }

 private:
  struct alignas(64) Flag {
    std::atomic<std::uint64_t> epoch;
    ArrivalSignal signal;   // wakes the peers that sleep waiting for this rank (peer_wait.h)
    Call call;              // written before epoch is released, read after it is acquired
    Call one_shot_call[2];  // a one-shot call's, by the parity of one_shot_calls_
    // Cross-memory attach: where this rank's buffer is.
    std::uint64_t pid;
    std::uint64_t address;
    // A direct call (provided memory, cross-memory attach): whether this rank's part failed.
    std::uint64_t failed;
  };
  Flag& flag(int rank) const { return flags_[rank]; }
  unsigned char* slot(int rank) const;
  unsigned char* result() const;
  unsigned char* one_shot_part(int rank, std::size_t half) const;
  void arrive_and_wait();
  template <class T>
  void sum_slice(T* own, std::size_t begin, std::size_t end);
  template <class T>
  void sum_inputs(T* out, std::size_t n);
  // How a direct (unstaged) call reaches rank r's elements [begin, begin + n).
  template <class T>
  struct PeerAccess {
    // A pointer to them, or to a copy made in `scratch`; nullptr when they could not be read.
    std::function<const T*(int r, std::size_t begin, std::size_t n, T* scratch)> read;
    // Copies them to `to`; false when they could not be read.
    std::function<bool(int r, std::size_t begin, std::size_t n, T* to)> copy;
  };
  template <class T>
  bool sum_direct(T* own, std::size_t count, const PeerAccess<T>& peers);
  // The first meeting of a call: whether every rank published the same Call.
  bool meet_and_agree();

  Flag* flags_;
  unsigned char* data_;
  int rank_;
  int size_;
  std::size_t chunk_bytes_;
  std::uint64_t epoch_ = 0;
  std::uint64_t one_shot_calls_ = 0;  // agreed one-shot calls so far: which half of the slots
  std::vector<float> widened_;        // fp16/bf16 partial sums, in float
  std::vector<const void*> inputs_;   // what sum_inputs adds: one pointer per rank
  std::vector<double> scratch_;       // the peers' slices of a chunk read by cross-memory attach
  WaitPolicy wait_;
};

}  // namespace harness::plugins
