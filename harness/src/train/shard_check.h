// What each rank reduced, under the sharded strategy. Its allgather copies every rank's shard
// to every replica, so a reduce-scatter that got one rank's block wrong leaves the replicas
// equal (and the replica check content) with a wrong model. After each training step every rank
// sums its input per block and its own shard; one MPI allreduce of those sums (on the control
// communicator, not the backend under test) gives each block's expected sum, and a shard whose
// sum is off it, or that holds NaN or an infinity, fails the trial on every rank naming the
// rank. Sums, not elements: O(ranks) numbers a step, so training keeps its speed; an error
// smaller than the tolerance of the sum can pass.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "train/gradient_reducer.h"
#include "trial/group_agreement.h"

namespace harness {

class Watchdog;

// Collective over comm (every rank gets the same answer); the reducer's last step must have
// been sharded. The problem names the first rank whose shard is wrong.
GroupProblem check_shards(const GradientReducer& reducer, MPI_Comm comm, Watchdog* watchdog,
                          std::uint64_t step);

}  // namespace harness
