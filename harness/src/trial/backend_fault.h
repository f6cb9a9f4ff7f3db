// A backend call that failed on one rank ends the trial on every rank, with that rank's message,
// and the sweep goes on. A rank that left at its own error would leave its peers waiting in the
// next collective for ever (c10d and Horovod end such a wait by aborting the communicator; a
// plugin here has no abort, and Open MPI cannot take back a rank stuck in a collective). So the
// failing rank keeps its error instead of throwing it, goes on making the calls its peers make,
// in step with them, and at the next point every rank reaches (the barrier before a sample, a
// training step's status, the end of training) the ranks agree over the control communicator
// and leave together. The error is also handed to the watchdog: when a backend failed without
// taking part in its call, its peers are stuck inside it, and the watchdog's report of that
// trial then names the failure rather than only the wait.
#pragma once

#include <mpi.h>

#include <atomic>
#include <mutex>
#include <string>

#include "harness/plugin/status.h"
#include "trial/group_agreement.h"

namespace harness {

class Watchdog;

class BackendFault {
 public:
  explicit BackendFault(Watchdog* watchdog) : watchdog_(watchdog) {}
  ~BackendFault();  // the trial is over: the watchdog forgets the failure
  BackendFault(const BackendFault&) = delete;
  BackendFault& operator=(const BackendFault&) = delete;

  // Whether `status` is ok; the first failure on this rank is kept ("allreduce: <message>").
  // Any thread.
  bool record(const plugin::Status& status, const char* call);
  bool any() const { return any_.load(); }
  // kFailed with the first failure's text; none when no call failed.
  GroupProblem problem() const;

 private:
  Watchdog* watchdog_;
  std::atomic<bool> any_{false};
  mutable std::mutex mutex_;
  std::string first_;
};

// Collective over comm (and a barrier): when any rank's `fault` holds a failure, throws
// GroupFailure on every rank with the lowest failed rank's message.
void leave_on_fault(MPI_Comm comm, const BackendFault& fault, Watchdog* watchdog);

}  // namespace harness
