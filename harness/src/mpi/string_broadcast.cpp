#include "mpi/string_broadcast.h"

#include <climits>
#include <stdexcept>

#include "mpi/mpi_check.h"

namespace harness {

std::string broadcast_string(const std::string& text, int root, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // MPI counts are int: longer text is refused on the root, and every rank learns it.
  long long length = rank == root ? static_cast<long long>(text.size()) : 0;
  check_mpi(MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm), "MPI_Bcast");
  if (length > INT_MAX)
    throw std::runtime_error("broadcast_string: " + std::to_string(length) +
                             " bytes exceed MPI's int count");
  std::string received = rank == root ? text : std::string(static_cast<std::size_t>(length), '\0');
  check_mpi(MPI_Bcast(received.data(), static_cast<int>(length), MPI_CHAR, root, comm),
            "MPI_Bcast");
  return received;
}

}  // namespace harness
