#include "mpi/deadline.h"

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "common/exit_codes.h"
#include "common/failure_text.h"

namespace harness {

Deadline::Deadline(double timeout_s, std::string subject) : subject_(std::move(subject)) {
  if (timeout_s > 0) thread_ = std::thread([this, timeout_s] { wait(timeout_s); });
}

Deadline::~Deadline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  ended_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Deadline::set_activity(const std::string& activity) {
  std::lock_guard<std::mutex> lock(mutex_);
  activity_ = activity;
}

void Deadline::wait(double timeout_s) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto limit = std::chrono::duration<double>(timeout_s);
  if (ended_.wait_for(lock, limit, [this] { return done_; })) return;
  lock.unlock();
  expire(timeout_s);
}

void Deadline::expire(double timeout_s) {
  std::string activity;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    activity = activity_.empty() ? "its work" : activity_;
  }
  // Under an address-space limit a library may retry a failed allocation for ever (OpenBLAS
  // does, for its buffers): the limit is then the likely cause, and is named.
  std::string limit = address_space_limit_text();
  if (!limit.empty())
    limit = "; " + limit + "; a library retrying a failed allocation never returns under it";
  std::fprintf(stderr,
               "harness: error: %s: %s has not returned after %g s (timeout_s); it would hang "
               "every trial, so the job ends here (exit status %d)%s\n",
               subject_.c_str(), activity.c_str(), timeout_s, kExitHung, limit.c_str());
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, kExitHung);
  _exit(kExitHung);
}

}  // namespace harness
