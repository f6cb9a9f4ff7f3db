#include "mpi/max_over_ranks.h"

#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {

namespace {

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

}  // namespace

double max_over_ranks(double value, MPI_Comm comm, Watchdog* watchdog) {
  WatchedOperation watched(watchdog, "max over ranks", 0, size_of(comm));
  double most = value;
  check_mpi(MPI_Allreduce(&value, &most, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return most;
}

std::vector<double> max_over_ranks(const std::vector<double>& values, MPI_Comm comm,
                                   Watchdog* watchdog) {
  WatchedOperation watched(watchdog, "max over ranks", 0, size_of(comm));
  std::vector<double> most(values.size());
  check_mpi(MPI_Allreduce(values.data(), most.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                          MPI_MAX, comm),
            "MPI_Allreduce");
  return most;
}

}  // namespace harness
