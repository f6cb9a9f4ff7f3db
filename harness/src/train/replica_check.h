// Data parallelism's invariant: after training, every rank holds bit-identical parameters and
// buffers. If not, the backend's reduction differs between ranks (a different summation
// order), or a buffer drifted (broadcast_buffers off, a non-fp32 buffer).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "train/fusion_buffer.h"

namespace harness {

class Watchdog;

struct ReplicaCheck {
  bool consistent = true;
  std::uint64_t hash = 0;  // this rank's fingerprint (FNV-1a of the parameters' and buffers' bytes)
  // The first rank whose parameters hold NaN or an infinity (-1: none). Equal bits on every
  // rank are no proof of a right result: a NaN that the sharded allgather copied everywhere
  // leaves the replicas equal.
  int non_finite_rank = -1;
};

// Collective over comm, watched by `watchdog` (may be null).
ReplicaCheck check_replicas(FusionBuffer& fusion, const std::vector<at::Tensor>& buffers,
                            MPI_Comm comm, Watchdog* watchdog);

}  // namespace harness
