// The slowest rank's figures: a step or a sample is as slow as its slowest rank, and
// decisions taken on timings (how many more steps) must be the same on every rank.
#pragma once

#include <mpi.h>

#include <vector>

namespace harness {

class Watchdog;

// Collective over comm: the largest value over the ranks (watched by `watchdog`, may be null).
double max_over_ranks(double value, MPI_Comm comm, Watchdog* watchdog);

// Collective over comm, every rank passing as many values: the element-wise maximum.
std::vector<double> max_over_ranks(const std::vector<double>& values, MPI_Comm comm,
                                   Watchdog* watchdog);

}  // namespace harness
