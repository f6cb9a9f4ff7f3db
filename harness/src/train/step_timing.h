// The timing phase of a train trial: every rank's throughput and per-step phase times,
// gathered on rank 0 (throughput summed over ranks, phase times averaged).
#pragma once

#include <mpi.h>

#include "common/json.h"
#include "train/train_loop.h"

namespace harness {

// Collective over comm. On rank 0: {"throughput": {...}, "step_time_ms": {...}}; elsewhere
// an empty object.
Json gather_step_timing(const TrainOutcome& outcome, MPI_Comm comm);

}  // namespace harness
