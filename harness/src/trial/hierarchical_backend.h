// The "hierarchical" backend: a composition of two plugins, as NCCL and Horovod split an
// allreduce by level. Within each host the intra backend (shm by default) sums the buffer;
// across hosts the inter backend (mpi, gloo, ring, ...) sums one slice of it per local rank
// among the ranks with the same local rank; within each host the slices are shared again. A
// group whose hosts hold different numbers of ranks is declined (unsupported).
//   "backend": "hierarchical",
//   "backend_params": {"inter": "gloo", "inter_params": {...}, "intra": "shm", "intra_params": {}}
#pragma once

#include "trial/composed_backend.h"

namespace harness {

// Registered in trial/composed_backend.cpp; its parameters are a settings table of their own
// (intra, intra_params, inter, inter_params).
const ComposedBackend& hierarchical_backend();

}  // namespace harness
