#include "ring_allreduce.h"

#include <algorithm>

#include "harness/plugin/half_float.h"

namespace harness::plugins {
namespace {

struct Segment {
  std::size_t offset;
  std::size_t count;
};

// Segment s of N: the first count % N segments are one element longer.
Segment segment_of(std::size_t count, int ranks, int s) {
  const std::size_t base = count / ranks, extra = count % ranks;
  const std::size_t index = static_cast<std::size_t>(s);
  return {index * base + std::min(index, extra), base + (index < extra ? 1 : 0)};
}

int wrap(int value, int ranks) { return ((value % ranks) + ranks) % ranks; }

// One ring step: send segment `send` to the right, receive segment `receive` from the left,
// chunk by chunk. With reduce, received chunks are added into data as each lands (while the
// next arrives); otherwise they land in place.
template <class T>
plugin::Status ring_step(T* data, Segment send, Segment receive, int left, int right,
                         PeerLinks& links, std::size_t chunk, bool reduce, T* scratch) {
  T* target = reduce ? scratch : data + receive.offset;
  std::size_t added = 0;  // elements of the receive already added
  const auto add = [&](std::size_t bytes) {
    const std::size_t landed = bytes / sizeof(T);
    T* out = data + receive.offset;
    for (std::size_t i = added; i < landed; ++i) out[i] += scratch[i];
    added = landed;
  };
  return links.exchange(right, data + send.offset, send.count * sizeof(T), left, target,
                        receive.count * sizeof(T), chunk * sizeof(T),
                        reduce ? PeerLinks::Progress(add) : PeerLinks::Progress());
}

}  // namespace

namespace {

// The ring's two phases over segments of `count` elements. `shift` turns the ring: with 0 the
// reduce-scatter leaves segment rank + 1 complete here (the allreduce's order); with -1 it
// leaves segment rank, as a reduce-scatter's caller expects, and the allgather starts from it.
struct Ring {
  int rank, ranks, left, right;
  PeerLinks* links;
  std::size_t count, chunk;
  int shift;

  Segment segment(int s) const { return segment_of(count, ranks, wrap(s + shift, ranks)); }

  // After step s, segment (rank - s - 1) holds s + 2 ranks' contributions.
  template <class T>
  plugin::Status reduce_scatter(T* data, T* scratch) const {
    for (int s = 0; s < ranks - 1; ++s) {
      plugin::Status step = ring_step(data, segment(rank - s), segment(rank - s - 1), left, right,
                                      *links, chunk, /*reduce=*/true, scratch);
      if (!step.is_ok()) return step;
    }
    return plugin::Status::ok();
  }

  // Passes the complete segments around, starting from segment rank + 1.
  template <class T>
  plugin::Status allgather(T* data, T* scratch) const {
    for (int s = 0; s < ranks - 1; ++s) {
      plugin::Status step = ring_step(data, segment(rank + 1 - s), segment(rank - s), left, right,
                                      *links, chunk, /*reduce=*/false, scratch);
      if (!step.is_ok()) return step;
    }
    return plugin::Status::ok();
  }
};

template <class T>
Ring ring_over(const RingGroup& group, std::size_t count, const RingOptions& options, int shift) {
  return {group.rank,
          group.size,
          wrap(group.rank - 1, group.size),
          wrap(group.rank + 1, group.size),
          group.links,
          count,
          std::max<std::size_t>(1, options.chunk_bytes / sizeof(T)),
          shift};
}

template <class T>
T* scratch_for(const Ring& ring, std::vector<T>* scratch) {
  const std::size_t largest = segment_of(ring.count, ring.ranks, 0).count;
  if (scratch->size() < largest) scratch->resize(largest);
  return scratch->data();
}

}  // namespace

template <class T>
plugin::Status ring_allreduce_sum(T* data, std::size_t count, const RingGroup& group,
                                  const RingOptions& options, std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(group, count, options, 0);
  if (ring.ranks == 1 || count == 0) return plugin::Status::ok();
  T* space = scratch_for(ring, scratch);
  plugin::Status half = ring.reduce_scatter(data, space);
  return half.is_ok() ? ring.allgather(data, space) : half;
}

template <class T>
plugin::Status ring_reduce_scatter_sum(T* data, std::size_t count, const RingGroup& group,
                                       const RingOptions& options, std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(group, count, options, -1);
  if (ring.ranks == 1 || count == 0) return plugin::Status::ok();
  return ring.reduce_scatter(data, scratch_for(ring, scratch));
}

template <class T>
plugin::Status ring_allgather(T* data, std::size_t count, const RingGroup& group,
                              const RingOptions& options, std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(group, count, options, -1);
  if (ring.ranks == 1 || count == 0) return plugin::Status::ok();
  return ring.allgather(data, scratch_for(ring, scratch));
}

#define HARNESS_RING_INSTANTIATE(T)                                                                \
  template plugin::Status ring_allreduce_sum<T>(T*, std::size_t, const RingGroup&,                 \
                                                const RingOptions&, std::vector<T>*);              \
  template plugin::Status ring_reduce_scatter_sum<T>(T*, std::size_t, const RingGroup&,            \
                                                     const RingOptions&, std::vector<T>*);         \
  template plugin::Status ring_allgather<T>(T*, std::size_t, const RingGroup&, const RingOptions&, \
                                            std::vector<T>*);

HARNESS_RING_INSTANTIATE(float)
HARNESS_RING_INSTANTIATE(double)
HARNESS_RING_INSTANTIATE(plugin::Float16)
HARNESS_RING_INSTANTIATE(plugin::BFloat16)

}  // namespace harness::plugins
