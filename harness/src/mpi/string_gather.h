// Text from every rank to one: each rank's part of a timeline, a report.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace harness {

// Collective over comm: root gets every rank's `text` in rank order; the others get nothing.
std::vector<std::string> gather_strings(const std::string& text, int root, MPI_Comm comm);

}  // namespace harness
