// Stragglers (DeepSpeed's comm logger, Horovod's stall check): per timing-phase step, when each
// rank arrived at the gradient allreduce relative to the first rank, so a slow host is named,
// not just felt. Ranks' steady clocks are put on rank 0's by the median offset seen at the exit
// of a few barriers (resolution: the barrier's exit skew, microseconds on one host).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "record/record_parts.h"

namespace harness {

class Watchdog;

// Collective over comm (watched by `watchdog`, may be null); every rank passes as many arrivals
// (steady-clock ns, one per step). Rank 0 gets the last-minus-first arrival per step and how
// often each rank arrived last; other ranks (and groups of one) get nothing.
std::optional<StragglersRecord> summarise_arrivals(const std::vector<std::int64_t>& arrival_ns, MPI_Comm comm,
                        Watchdog* watchdog);

}  // namespace harness
