// MPI set-up and the trial groups: ranks 0..N-1 of the job form a trial's group, the others
// wait in a sleeping barrier so that they do not steal a core from the trial.
#pragma once

#include <mpi.h>

#include <string>

namespace harness {

class MpiRuntime {
 public:
  MpiRuntime(int* argc, char*** argv);
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

// A communicator holding world ranks 0..group_size-1 (MPI_COMM_NULL on the others).
// Collective over `world`. The caller frees it with MPI_Comm_free.
MPI_Comm split_first_ranks(MPI_Comm world, int group_size);

// A barrier that polls with short sleeps instead of spinning, so idle ranks use no CPU.
void sleeping_barrier(MPI_Comm comm);

// This process's rank among the processes of comm that share its host.
int local_rank(MPI_Comm comm);

// MPI_Get_library_version, first line.
std::string mpi_library_version();

// Throws std::runtime_error with MPI's text when code is not MPI_SUCCESS.
void check_mpi(int code, const char* what);

// A trial-level problem seen by one rank (status "failed" or "skipped", and why).
struct GroupProblem {
  std::string status;  // empty: no problem
  std::string reason;
};

// Collective over comm: every rank learns the problem of the lowest-numbered rank that had
// one (its reason prefixed with that rank when the group has several ranks), so all ranks
// leave a trial together instead of some waiting in a collective forever.
GroupProblem agree_on_problem(MPI_Comm comm, const GroupProblem& local);

}  // namespace harness
