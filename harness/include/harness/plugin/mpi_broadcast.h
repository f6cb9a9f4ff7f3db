// Broadcast of a host buffer as bytes over MPI: what the MPI-based CPU backends (mpi, ring,
// shm) all do for broadcast, whatever their allreduce.
#pragma once

#include <mpi.h>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/types.h"

namespace harness::plugin {

// `buffer` already checked by the backend; `size` is the group's.
inline Status mpi_broadcast_bytes(const BufferView& buffer, int root, int size, MPI_Comm comm) {
  if (Status s = check_root(root, size); !s.is_ok()) return s;
  if (buffer.count == 0) return Status::ok();
  return mpi_status(MPI_Bcast(buffer.data, static_cast<int>(buffer.bytes()), MPI_BYTE, root, comm),
                    "MPI_Bcast");
}

}  // namespace harness::plugin
