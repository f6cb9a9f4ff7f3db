// MPI return codes as text and as Status, for every MPI-based plugin and the host alike:
// one place that turns an MPI error into a message naming the call that failed.
#pragma once

#include <mpi.h>

#include <string>

#include "harness/plugin/status.h"

namespace harness::plugin {

// MPI's own text for an error code.
inline std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

// Status::ok() for MPI_SUCCESS, else an internal error "<what> failed: <MPI's text>".
inline Status mpi_status(int code, const char* what) {
  if (code == MPI_SUCCESS) return Status::ok();
  return Status::internal(std::string(what) + " failed: " + mpi_error_text(code));
}

}  // namespace harness::plugin
