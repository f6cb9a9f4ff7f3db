#include "mpi/mpi_check.h"

#include <stdexcept>

#include "harness/plugin/mpi_status.h"

namespace harness {

void check_mpi(int code, const char* what) {
  const plugin::Status status = plugin::mpi_status(code, what);
  if (!status.is_ok()) throw std::runtime_error(status.message());
}

}  // namespace harness
