#include "trial/group_agreement.h"

#include "mpi/mpi_check.h"
#include "mpi/string_broadcast.h"
#include "mpi/watchdog.h"

namespace harness {

GroupProblem agree_on_problem(MPI_Comm comm, const GroupProblem& local, Watchdog* watchdog) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  WatchedOperation watched(watchdog, kAgreementOperation, 0, size);
  int mine = local.any() ? rank : size, first = size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return {};
  int status = static_cast<int>(local.status);
  check_mpi(MPI_Bcast(&status, 1, MPI_INT, first, comm), "MPI_Bcast");
  GroupProblem agreed{static_cast<TrialStatus>(status),
                      broadcast_string(local.reason, first, comm)};
  if (size > 1) agreed.reason = "rank " + std::to_string(first) + ": " + agreed.reason;
  return agreed;
}

}  // namespace harness
