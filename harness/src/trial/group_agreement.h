// Leaving a trial together: when one rank of a group cannot go on, every rank must learn it
// before the next collective, or the others wait in that collective forever.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

#include "record/trial_status.h"

namespace harness {

// A trial-level problem seen by one rank.
struct GroupProblem {
  TrialStatus status = TrialStatus::kOk;  // kOk: no problem
  std::string reason;

  bool any() const { return status != TrialStatus::kOk; }
};

// Thrown on every rank of a group at the same point, once they agreed on a problem: each
// rank leaves what it was doing the same way, so no rank waits in a collective the others
// skip.
class GroupFailure : public std::runtime_error {
 public:
  explicit GroupFailure(GroupProblem problem)
      : std::runtime_error(problem.reason), problem_(std::move(problem)) {}
  const GroupProblem& problem() const { return problem_; }

 private:
  GroupProblem problem_;
};

class Watchdog;

// Collective over comm, watched by `watchdog` (may be null): every rank learns the problem of
// the lowest-numbered rank that had one (its reason prefixed with that rank when the group has
// several ranks).
GroupProblem agree_on_problem(MPI_Comm comm, const GroupProblem& local, Watchdog* watchdog);

}  // namespace harness
