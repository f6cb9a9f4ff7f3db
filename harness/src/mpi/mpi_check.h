// The host's MPI error check: an MPI call that fails becomes an exception naming the call.
#pragma once

namespace harness {

// Throws std::runtime_error "<what> failed: <MPI's text>" unless code is MPI_SUCCESS.
void check_mpi(int code, const char* what);

}  // namespace harness
