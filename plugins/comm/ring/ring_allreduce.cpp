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

template <class T>
int ring_allreduce_sum(T* data, std::size_t count, MPI_Comm comm, const RingOptions& options,
                       std::vector<T>* scratch) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (ranks == 1 || count == 0) return MPI_SUCCESS;
  const int left = wrap(rank - 1, ranks), right = wrap(rank + 1, ranks);
  const std::size_t chunk = std::max<std::size_t>(1, options.chunk_bytes / sizeof(T));
  if (scratch->size() < segment_of(count, ranks, 0).count)
    scratch->resize(segment_of(count, ranks, 0).count);

  // Reduce-scatter: after step s, segment (rank - s - 1) holds s + 2 ranks' contributions.
  for (int s = 0; s < ranks - 1; ++s) {
    const int rc = ring_step(data, segment_of(count, ranks, wrap(rank - s, ranks)),
                             segment_of(count, ranks, wrap(rank - s - 1, ranks)), left, right, comm,
                             chunk, /*reduce=*/true, scratch->data());
    if (rc != MPI_SUCCESS) return rc;
  }
  // Now segment (rank + 1) is complete here. Allgather: pass complete segments around.
  for (int s = 0; s < ranks - 1; ++s) {
    const int rc = ring_step(data, segment_of(count, ranks, wrap(rank + 1 - s, ranks)),
                             segment_of(count, ranks, wrap(rank - s, ranks)), left, right, comm,
                             chunk, /*reduce=*/false, scratch->data());
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

template int ring_allreduce_sum<float>(float*, std::size_t, MPI_Comm, const RingOptions&,
                                       std::vector<float>*);
template int ring_allreduce_sum<double>(double*, std::size_t, MPI_Comm, const RingOptions&,
                                        std::vector<double>*);
template int ring_allreduce_sum<plugin::Float16>(plugin::Float16*, std::size_t, MPI_Comm,
                                                 const RingOptions&, std::vector<plugin::Float16>*);
template int ring_allreduce_sum<plugin::BFloat16>(plugin::BFloat16*, std::size_t, MPI_Comm,
                                                  const RingOptions&,
                                                  std::vector<plugin::BFloat16>*);

}  // namespace harness::plugins
