// The slowest rank's figures: a step or a sample is as slow as its slowest rank, and
// decisions taken on timings (how many more steps) must be the same on every rank.
#pragma once

#include <mpi.h>

#include <vector>

namespace harness {

// Collective over comm: the largest value over the ranks.
double max_over_ranks(double value, MPI_Comm comm);

// Collective over comm, every rank passing as many values: the element-wise maximum.
std::vector<double> max_over_ranks(const std::vector<double>& values, MPI_Comm comm);

}  // namespace harness
