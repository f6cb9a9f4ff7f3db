// Text from one rank to all: the experiment file, a failing rank's reason.
#pragma once

#include <mpi.h>

#include <string>

namespace harness {

// Collective over comm: every rank returns root's `text`.
std::string broadcast_string(const std::string& text, int root, MPI_Comm comm);

}  // namespace harness
