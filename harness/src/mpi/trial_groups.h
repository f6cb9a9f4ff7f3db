// The trial groups: ranks 0..N-1 of the job form a trial's group; the others wait in a
// sleeping barrier so that they do not steal a core from the trial.
#pragma once

#include <mpi.h>

namespace harness {

class Watchdog;

// A communicator holding world ranks 0..group_size-1 (MPI_COMM_NULL on the others).
// Collective over `world`, watched by `watchdog` (may be null). The caller frees it with
// MPI_Comm_free.
MPI_Comm split_first_ranks(MPI_Comm world, int group_size, Watchdog* watchdog);

// A barrier that polls with short sleeps instead of spinning, so idle ranks use no CPU.
void sleeping_barrier(MPI_Comm comm);

// Collective over comm: this process's rank among the processes of comm that share its host
// (MPI's shared-memory split), and how many they are.
struct HostPlace {
  int rank = 0;
  int ranks = 1;
};
HostPlace place_on_host(MPI_Comm comm);

// This process's rank among the processes of comm that share its host.
int local_rank(MPI_Comm comm);

}  // namespace harness
