#include "mpi_links.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "harness/plugin/mpi_status.h"

namespace harness::plugins {
namespace {

constexpr int kRingTag = 7401;

}  // namespace

MpiLinks::MpiLinks(MPI_Comm group) { MPI_Comm_dup(group, &comm_); }

MpiLinks::~MpiLinks() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

// Every chunk's receive and send posted at once; the receives then completed in order, so
// that the caller adds chunk k while chunk k + 1 arrives.
plugin::Status MpiLinks::exchange(int to, const void* send, std::size_t send_bytes, int from,
                                  void* receive, std::size_t receive_bytes, std::size_t chunk_bytes,
                                  const Progress& progress) {
  const std::size_t chunk = std::clamp<std::size_t>(chunk_bytes, 1, INT_MAX);
  const std::size_t sent = to < 0 ? 0 : send_bytes, got = from < 0 ? 0 : receive_bytes;
  const std::size_t chunks = std::max((sent + chunk - 1) / chunk, (got + chunk - 1) / chunk);
  std::vector<MPI_Request> sends(chunks, MPI_REQUEST_NULL), receives(chunks, MPI_REQUEST_NULL);
  const auto* out = static_cast<const char*>(send);
  auto* in = static_cast<char*>(receive);
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t at = c * chunk;
    if (at < got) {
      const int rc = MPI_Irecv(in + at, static_cast<int>(std::min(chunk, got - at)), MPI_BYTE, from,
                               kRingTag, comm_, &receives[c]);
      if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "MPI_Irecv");
    }
    if (at < sent) {
      const int rc = MPI_Isend(out + at, static_cast<int>(std::min(chunk, sent - at)), MPI_BYTE, to,
                               kRingTag, comm_, &sends[c]);
      if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "MPI_Isend");
    }
  }
  for (std::size_t c = 0; c < chunks; ++c) {
    if (receives[c] == MPI_REQUEST_NULL) continue;
    const int rc = MPI_Wait(&receives[c], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "MPI_Wait");
    if (progress) progress(std::min(got, (c + 1) * chunk));
  }
  return plugin::mpi_status(
      MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE),
      "MPI_Waitall");
}

plugin::Status MpiLinks::broadcast(void* data, std::size_t bytes, int root) {
  if (bytes > INT_MAX)
    return plugin::Status::invalid_argument("ring broadcast: " + std::to_string(bytes) +
                                            " B exceed MPI's int count");
  return plugin::mpi_status(MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, comm_),
                            "MPI_Bcast");
}

plugin::Status MpiLinks::barrier() { return plugin::mpi_status(MPI_Barrier(comm_), "MPI_Barrier"); }

}  // namespace harness::plugins
