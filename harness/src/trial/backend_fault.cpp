#include "trial/backend_fault.h"

#include "mpi/watchdog.h"

namespace harness {

BackendFault::~BackendFault() {
  if (any_ && watchdog_) watchdog_->note_failure("");
}

bool BackendFault::record(const plugin::Status& status, const char* call) {
  if (status.is_ok()) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!any_.load()) {
    first_ = std::string(call) + ": " + status.message();
    any_ = true;
    if (watchdog_) watchdog_->note_failure(first_);
  }
  return false;
}

GroupProblem BackendFault::problem() const {
  if (!any()) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  return {TrialStatus::kFailed, first_};
}

void leave_on_fault(MPI_Comm comm, const BackendFault& fault, Watchdog* watchdog) {
  const GroupProblem agreed = agree_on_problem(comm, fault.problem(), watchdog);
  if (agreed.any()) throw GroupFailure(agreed);
}

}  // namespace harness
