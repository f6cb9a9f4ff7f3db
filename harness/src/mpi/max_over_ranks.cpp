#include "mpi/max_over_ranks.h"

#include "mpi/mpi_check.h"

namespace harness {

double max_over_ranks(double value, MPI_Comm comm) {
  double most = value;
  check_mpi(MPI_Allreduce(&value, &most, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return most;
}

std::vector<double> max_over_ranks(const std::vector<double>& values, MPI_Comm comm) {
  std::vector<double> most(values.size());
  check_mpi(MPI_Allreduce(values.data(), most.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                          MPI_MAX, comm),
            "MPI_Allreduce");
  return most;
}

}  // namespace harness
