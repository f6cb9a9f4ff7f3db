// The watchdog (Horovod's stall check, torch's desync report): every collective, barrier and
// training step of a trial runs as a WatchedOperation with a deadline. The job's watchdog is a
// handle the sweep creates and hands to each trial in its TrialContext (nullptr: unwatched);
// code below the trial takes it as a parameter. A rank whose current
// operation has lasted longer than the timeout reports (operation, step, seconds) to rank 0
// from a thread of its own, over a TCP connection of its own (mpi/report_channel.h), never
// through MPI: the collectives it watches keep MPI to the main thread. Rank 0 gathers the reports for a short
// grace period, names the ranks that are not waiting in the same operation ("rank 1 has not
// entered allreduce of step 812 for 60 s; ranks 0, 2, 3 are waiting"), hands the message to
// the hang handler (which records the trial as hung and marks meta.json) and aborts the job
// with kExitHung: MPI cannot take a stuck rank back, and --resume can go on from there.
//
// A rank that is stopped reports nothing, which is how it is named. When rank 0 is the one
// stopped, the others wait a further timeout for it and then abort with their own message.
// When the connections cannot be made, the watchdog stays off and says why.
//
// Two ends are known failures, not hangs, and the handler is told so (failed = true):
// - a backend call that failed on a rank (note_failure; trial/backend_fault.h): the failing
//   rank waits for its peers at the next agreement (kAgreementOperation), which they never
//   reach when the backend left them inside its call. After kFailureGraceSeconds there (or
//   timeout_s, if shorter) it reports at once, with the backend's message, which the verdict
//   then leads with;
// - a rank that crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT): its signal handler sends
//   rank 0 a report naming the signal and the operation, then waits for rank 0 to record it
//   and abort the job, so that the record says which rank died in which trial.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "mpi/report_channel.h"

namespace harness {

void report_crash(int signal_number);

class Watchdog {
 public:
  // Rank 0 only: records the hang (the trial as hung, or failed when the cause is a known
  // failure, and meta.json) before the job is aborted.
  using HangHandler = std::function<void(const std::string& message, bool failed)>;

  // Collective over `world`. timeout_s <= 0 leaves the watchdog off.
  Watchdog(MPI_Comm world, double timeout_s, HangHandler on_hang);
  ~Watchdog();  // stops the thread
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  bool active() const { return thread_.joinable(); }
  double timeout_s() const { return timeout_s_; }
  // Why it is off, when it is.
  const std::string& inactive_reason() const { return inactive_reason_; }

  // What the main thread is in; used by WatchedOperation (main thread only).
  struct State {
    const char* operation = nullptr;
    std::uint64_t step = 0;
    int group_size = 0;
    std::int64_t entered_ns = 0;
  };
  State current() const;
  void enter(const char* operation, std::uint64_t step, int group_size);
  void restore(const State& state);
  void leave();
  // A backend failure on this rank in the trial now running ("" when the trial ends); any
  // thread.
  void note_failure(const std::string& text);

 private:
  struct Report;
  void run();
  bool overdue(Report* report) const;
  bool failure_overdue(Report* report) const;
  void fill(Report* report, const char* operation, double waited) const;
  friend void report_crash(int signal_number);
  void leader_loop();
  void member_loop();
  std::string compose(const Report* reports, int count) const;
  std::string waiting_text(const Report* reports, int count) const;
  [[noreturn]] void end_job(const std::string& message, bool failed, int exit_status);

  std::unique_ptr<ReportChannel> channel_;  // reports to rank 0
  int rank_ = 0;
  int size_ = 1;
  double timeout_s_ = 0;
  HangHandler on_hang_;
  std::string inactive_reason_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  // The main thread's current operation: name (static string), step, when it was entered.
  std::atomic<const char*> operation_{nullptr};
  std::atomic<std::uint64_t> step_{0};
  std::atomic<int> group_size_{0};
  std::atomic<std::int64_t> entered_ns_{0};
  mutable std::mutex note_mutex_;
  std::string note_;  // this rank's backend failure in the trial now running
};

// How long a rank whose backend call failed waits at the next agreement for peers before it
// reports them stuck in the backend.
constexpr double kFailureGraceSeconds = 5.0;
// The operation ranks are in while they agree on a trial's problem (trial/group_agreement.h).
inline constexpr const char* kAgreementOperation = "agreement between ranks";

// RAII: the main thread is inside `operation` (a string literal) of `step`, an operation of the
// group of world ranks 0..group_size-1 (a trial's group), until destroyed. Nests: an inner
// operation replaces the outer one and gives it back, with its own start, when it ends.
// A null watchdog watches nothing.
class WatchedOperation {
 public:
  WatchedOperation(Watchdog* watchdog, const char* operation, std::uint64_t step, int group_size);
  ~WatchedOperation();
  WatchedOperation(const WatchedOperation&) = delete;
  WatchedOperation& operator=(const WatchedOperation&) = delete;

 private:
  Watchdog* watchdog_;
  Watchdog::State outer_;
};

}  // namespace harness
