#include "mpi/trial_groups.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {

MPI_Comm split_first_ranks(MPI_Comm world, int group_size, Watchdog* watchdog) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  int world_size = 1;
  MPI_Comm_size(world, &world_size);
  WatchedOperation watched(watchdog, "forming the trial's group", 0, world_size);
  MPI_Comm group = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(world, rank < group_size ? 0 : MPI_UNDEFINED, rank, &group),
            "MPI_Comm_split");
  if (group != MPI_COMM_NULL) MPI_Comm_set_errhandler(group, MPI_ERRORS_RETURN);
  return group;
}

void sleeping_barrier(MPI_Comm comm) {
  using std::chrono::microseconds;
  // Waiting ranks poll with a backoff up to 50 ms: each wake-up takes a core from the ranks
  // being measured, which shows where ranks and cores are few; the cost is at most 50 ms of
  // latency at the end of a trial.
  constexpr microseconds kLongestPause(50000);
  MPI_Request request;
  check_mpi(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
  int done = 0;
  for (auto pause = microseconds(50);; pause = std::min(pause * 2, kLongestPause)) {
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(pause);
  }
}

HostPlace place_on_host(MPI_Comm comm) {
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  HostPlace place;
  MPI_Comm_rank(node, &place.rank);
  MPI_Comm_size(node, &place.ranks);
  MPI_Comm_free(&node);
  return place;
}

int local_rank(MPI_Comm comm) { return place_on_host(comm).rank; }

}  // namespace harness
