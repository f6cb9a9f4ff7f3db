// Data parallelism's invariant: after training, every rank holds bit-identical parameters.
// If not, the backend's reduction differs between ranks (a different summation order).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "train/fusion_buffer.h"

namespace harness {

struct ReplicaCheck {
  bool consistent = true;
  std::uint64_t hash = 0;  // this rank's parameter fingerprint (FNV-1a of the raw floats)
};

// Collective over comm.
ReplicaCheck check_replicas(FusionBuffer& fusion, MPI_Comm comm);

}  // namespace harness
