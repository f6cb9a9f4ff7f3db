#include "ring_allreduce.h"

#include <algorithm>

#include "harness/plugin/half_float.h"

namespace harness::plugins {
namespace {

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpi_type<plugin::Float16>() {
  return MPI_UINT16_T;
}
template <>
MPI_Datatype mpi_type<plugin::BFloat16>() {
  return MPI_UINT16_T;
}

constexpr int kRingTag = 7401;

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
// chunk by chunk. With reduce, received chunks are added into data; otherwise they land in
// place.
template <class T>
int ring_step(T* data, Segment send, Segment receive, int left, int right, MPI_Comm comm,
              std::size_t chunk, bool reduce, T* scratch) {
  const std::size_t chunks =
      std::max((send.count + chunk - 1) / chunk, (receive.count + chunk - 1) / chunk);
  std::vector<MPI_Request> sends(chunks, MPI_REQUEST_NULL), receives(chunks, MPI_REQUEST_NULL);
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t at = c * chunk;
    if (at < receive.count) {
      T* target = reduce ? scratch + at : data + receive.offset + at;
      const int rc = MPI_Irecv(target, static_cast<int>(std::min(chunk, receive.count - at)),
                               mpi_type<T>(), left, kRingTag, comm, &receives[c]);
      if (rc != MPI_SUCCESS) return rc;
    }
    if (at < send.count) {
      const int rc =
          MPI_Isend(data + send.offset + at, static_cast<int>(std::min(chunk, send.count - at)),
                    mpi_type<T>(), right, kRingTag, comm, &sends[c]);
      if (rc != MPI_SUCCESS) return rc;
    }
  }
  // Chunks arrive in order on one link; add each as soon as it is in.
  for (std::size_t c = 0; c < chunks; ++c) {
    const int rc = MPI_Wait(&receives[c], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    const std::size_t at = c * chunk;
    if (reduce && at < receive.count) {
      T* out = data + receive.offset + at;
      const T* in = scratch + at;
      const std::size_t n = std::min(chunk, receive.count - at);
      for (std::size_t i = 0; i < n; ++i) out[i] += in[i];
    }
  }
  return MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

}  // namespace

namespace {

// The ring's two phases over segments of `count` elements. `shift` turns the ring: with 0 the
// reduce-scatter leaves segment rank + 1 complete here (the allreduce's order); with -1 it
// leaves segment rank, as a reduce-scatter's caller expects, and the allgather starts from it.
struct Ring {
  int rank, ranks, left, right;
  MPI_Comm comm;
  std::size_t count, chunk;
  int shift;

  Segment segment(int s) const { return segment_of(count, ranks, wrap(s + shift, ranks)); }

  // After step s, segment (rank - s - 1) holds s + 2 ranks' contributions.
  template <class T>
  int reduce_scatter(T* data, T* scratch) const {
    for (int s = 0; s < ranks - 1; ++s) {
      const int rc = ring_step(data, segment(rank - s), segment(rank - s - 1), left, right, comm,
                               chunk, /*reduce=*/true, scratch);
      if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
  }

  // Passes the complete segments around, starting from segment rank + 1.
  template <class T>
  int allgather(T* data, T* scratch) const {
    for (int s = 0; s < ranks - 1; ++s) {
      const int rc = ring_step(data, segment(rank + 1 - s), segment(rank - s), left, right, comm,
                               chunk, /*reduce=*/false, scratch);
      if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
  }
};

template <class T>
Ring ring_over(MPI_Comm comm, std::size_t count, const RingOptions& options, int shift) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  return {rank,  ranks, wrap(rank - 1, ranks), wrap(rank + 1, ranks),
          comm,  count, std::max<std::size_t>(1, options.chunk_bytes / sizeof(T)),
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
int ring_allreduce_sum(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                       std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(comm, count, options, 0);
  if (ring.ranks == 1 || count == 0) return MPI_SUCCESS;
  T* space = scratch_for(ring, scratch);
  const int rc = ring.reduce_scatter(data, space);
  return rc != MPI_SUCCESS ? rc : ring.allgather(data, space);
}

template <class T>
int ring_reduce_scatter_sum(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                            std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(comm, count, options, -1);
  if (ring.ranks == 1 || count == 0) return MPI_SUCCESS;
  return ring.reduce_scatter(data, scratch_for(ring, scratch));
}

template <class T>
int ring_allgather(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                   std::vector<T>* scratch) {
  const Ring ring = ring_over<T>(comm, count, options, -1);
  if (ring.ranks == 1 || count == 0) return MPI_SUCCESS;
  return ring.allgather(data, scratch_for(ring, scratch));
}

#define HARNESS_RING_INSTANTIATE(T)                                                         \
  template int ring_allreduce_sum<T>(T*, std::size_t, MPI_Comm, const RingOptions&,         \
                                     std::vector<T>*);                                      \
  template int ring_reduce_scatter_sum<T>(T*, std::size_t, MPI_Comm, const RingOptions&,    \
                                          std::vector<T>*);                                 \
  template int ring_allgather<T>(T*, std::size_t, MPI_Comm, const RingOptions&, std::vector<T>*);

HARNESS_RING_INSTANTIATE(float)
HARNESS_RING_INSTANTIATE(double)
HARNESS_RING_INSTANTIATE(plugin::Float16)
HARNESS_RING_INSTANTIATE(plugin::BFloat16)

}  // namespace harness::plugins
