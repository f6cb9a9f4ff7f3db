#include "mpi/watchdog.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "common/exit_codes.h"
#include "common/human_units.h"
#include "common/watchdog_resolution.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::duration<double>(kWatchdogPollSeconds);
// How long rank 0 keeps collecting reports after the first, so that every waiting rank has
// reported before the stuck ones are named.
constexpr double kGraceSeconds = kWatchdogGraceSeconds;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

std::string rank_list(const std::vector<int>& ranks) {
  std::vector<std::string> words;
  for (const int rank : ranks) words.push_back(std::to_string(rank));
  return human_list(words);
}

}  // namespace

// What a rank tells rank 0 when its operation is overdue, its backend failed, or it crashed.
// Plain bytes on the wire.
struct Watchdog::Report {
  int rank = -1;
  int group_size = 0;
  std::uint64_t step = 0;
  double waited_s = 0;
  char operation[48] = {};
  int signal = 0;       // the rank is crashing with this signal
  char note[208] = {};  // its backend's failure in this trial, if any
};

namespace {

// The watchdog a crashing rank reports through (null: none, or off).
std::atomic<Watchdog*> crash_watchdog{nullptr};
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

const char* signal_name(int signal_number) {
  switch (signal_number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
  }
  return "a signal";
}

// Async-signal-safe string building for the crash handler.
void append(char* line, std::size_t size, const char* text) {
  std::size_t used = std::strlen(line);
  while (*text && used + 1 < size) line[used++] = *text++;
  line[used] = '\0';
}

void append_number(char* line, std::size_t size, std::uint64_t value) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value && n < 23);
  char text[24];
  for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
  text[n] = '\0';
  append(line, size, text);
}

extern "C" void on_crash_signal(int signal_number) { report_crash(signal_number); }

}  // namespace

// The crashing rank: a line on stderr naming the rank, the signal and what it was in; a report
// to rank 0, whose watchdog records the trial and aborts the job (this rank waits for that a
// few seconds); then the signal's own action (a core dump where enabled).
void report_crash(int signal_number) {
  Watchdog* watchdog = crash_watchdog.load();
  if (watchdog) {
    Watchdog::Report report;
    report.rank = watchdog->rank_;
    report.group_size = watchdog->group_size_.load();
    report.step = watchdog->step_.load();
    report.signal = signal_number;
    const char* operation = watchdog->operation_.load();
    append(report.operation, sizeof report.operation, operation ? operation : "no operation");
    char line[256] = "harness: rank ";
    append_number(line, sizeof line, static_cast<std::uint64_t>(report.rank));
    append(line, sizeof line, " crashed (");
    append(line, sizeof line, signal_name(signal_number));
    append(line, sizeof line, ") in ");
    append(line, sizeof line, report.operation);
    append(line, sizeof line, " of step ");
    append_number(line, sizeof line, report.step);
    append(line, sizeof line, "\n");
    ssize_t ignored = write(STDERR_FILENO, line, std::strlen(line));
    (void)ignored;
    if (report.rank != 0 && watchdog->channel_ && watchdog->channel_->send(&report)) {
      timespec wait{10, 0};  // rank 0 aborts the job well before this ends
      while (nanosleep(&wait, &wait) != 0) {
      }
    }
  }
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

Watchdog::Watchdog(MPI_Comm world, double timeout_s, HangHandler on_hang)
    : timeout_s_(timeout_s), on_hang_(std::move(on_hang)) {
  MPI_Comm_rank(world, &rank_);
  MPI_Comm_size(world, &size_);
  if (timeout_s <= 0) {
    inactive_reason_ = "timeout_s is 0";
    return;
  }
  channel_ = std::make_unique<ReportChannel>(world, sizeof(Report));
  if (!channel_->open()) {
    inactive_reason_ = channel_->problem();
    return;
  }
  thread_ = std::thread([this] { run(); });
  crash_watchdog = this;
  for (const int signal_number : kCrashSignals) signal(signal_number, on_crash_signal);
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  for (const int signal_number : kCrashSignals) signal(signal_number, SIG_DFL);
  crash_watchdog = nullptr;
  stop_ = true;
  thread_.join();
}

void Watchdog::note_failure(const std::string& text) {
  std::lock_guard<std::mutex> lock(note_mutex_);
  note_ = text;
}

void Watchdog::enter(const char* operation, std::uint64_t step, int group_size) {
  step_ = step;
  group_size_ = group_size;
  entered_ns_ = now_ns();
  operation_ = operation;
}

void Watchdog::leave() { operation_ = nullptr; }

Watchdog::State Watchdog::current() const {
  return {operation_.load(), step_.load(), group_size_.load(), entered_ns_.load()};
}

void Watchdog::restore(const State& state) {
  operation_ = nullptr;  // the thread never sees a half-restored state as overdue
  step_ = state.step;
  group_size_ = state.group_size;
  entered_ns_ = state.entered_ns;
  operation_ = state.operation;
}

void Watchdog::run() {
  if (rank_ == 0)
    leader_loop();
  else
    member_loop();
}

void Watchdog::fill(Report* report, const char* operation, double waited) const {
  report->rank = rank_;
  report->group_size = group_size_.load();
  report->step = step_.load();
  report->waited_s = waited;
  std::snprintf(report->operation, sizeof report->operation, "%s", operation);
  std::lock_guard<std::mutex> lock(note_mutex_);
  std::snprintf(report->note, sizeof report->note, "%s", note_.c_str());
}

// True (and the report filled) when this rank's operation has lasted past the deadline.
bool Watchdog::overdue(Report* report) const {
  const char* operation = operation_.load();
  if (!operation) return false;
  const double waited = static_cast<double>(now_ns() - entered_ns_.load()) * 1e-9;
  if (waited < timeout_s_) return false;
  fill(report, operation, waited);
  return true;
}

// True (and the report filled) when this rank's backend failed in this trial and it has waited
// kFailureGraceSeconds (or timeout_s) at an agreement since: its peers are stuck in the backend.
bool Watchdog::failure_overdue(Report* report) const {
  {
    std::lock_guard<std::mutex> lock(note_mutex_);
    if (note_.empty()) return false;
  }
  const char* operation = operation_.load();
  if (!operation || std::strcmp(operation, kAgreementOperation) != 0) return false;
  const double waited = static_cast<double>(now_ns() - entered_ns_.load()) * 1e-9;
  if (waited < std::min(timeout_s_, kFailureGraceSeconds)) return false;
  fill(report, operation, waited);
  return true;
}

void Watchdog::member_loop() {
  Report report;
  std::int64_t reported_entry = -1;
  Clock::time_point reported_at;
  while (!stop_) {
    std::this_thread::sleep_for(kPoll);
    if ((overdue(&report) || failure_overdue(&report)) && reported_entry != entered_ns_.load()) {
      channel_->send(&report);  // when rank 0 is gone, the check below names it
      reported_entry = entered_ns_.load();
      reported_at = Clock::now();
    }
    // Rank 0 should have aborted the job by now; when it has not, it is the stuck one.
    const bool still_overdue = overdue(&report) && reported_entry == entered_ns_.load();
    if (still_overdue &&
        std::chrono::duration<double>(Clock::now() - reported_at).count() > timeout_s_) {
      std::fprintf(stderr,
                   "harness: watchdog: rank %d has waited %.0f s in %s of step %llu and rank 0 "
                   "has not answered its report: rank 0 is stuck; aborting the job\n",
                   rank_, report.waited_s, report.operation,
                   static_cast<unsigned long long>(report.step));
      MPI_Abort(MPI_COMM_WORLD, kExitHung);
    }
  }
}

void Watchdog::leader_loop() {
  std::vector<Report> reports(static_cast<std::size_t>(size_));
  std::vector<bool> reported(static_cast<std::size_t>(size_), false);
  Clock::time_point first_report;
  bool collecting = false;
  while (!stop_) {
    std::this_thread::sleep_for(kPoll);
    for (Report report; channel_->receive(&report);) {
      // Bytes off a socket: the name is used as a C string, so it must end within its array.
      report.operation[sizeof report.operation - 1] = '\0';
      report.note[sizeof report.note - 1] = '\0';
      if (report.rank > 0 && report.rank < size_) {
        reports[static_cast<std::size_t>(report.rank)] = report;
        reported[static_cast<std::size_t>(report.rank)] = true;
        if (report.signal) end_job(compose(&report, 1), true, kExitFatal);  // no grace: it dies
      }
    }
    reported[0] = overdue(&reports[0]) || failure_overdue(&reports[0]);
    const bool any = std::find(reported.begin(), reported.end(), true) != reported.end();
    if (any && !collecting) {
      collecting = true;
      first_report = Clock::now();
    }
    if (!collecting ||
        std::chrono::duration<double>(Clock::now() - first_report).count() < kGraceSeconds)
      continue;
    std::vector<Report> known;
    for (int r = 0; r < size_; ++r)
      if (reported[static_cast<std::size_t>(r)])
        known.push_back(reports[static_cast<std::size_t>(r)]);
    const bool failed = std::any_of(known.begin(), known.end(),
                                    [](const Report& r) { return r.note[0] != '\0'; });
    end_job(compose(known.data(), static_cast<int>(known.size())), failed,
            failed ? kExitFatal : kExitHung);
  }
}

void Watchdog::end_job(const std::string& message, bool failed, int exit_status) {
  std::fprintf(stderr, "harness: watchdog: %s\n", message.c_str());
  if (on_hang_) on_hang_(message, failed);
  std::fprintf(stderr,
               "harness: watchdog: aborting the job (exit status %d); finished trials "
               "are kept, --resume goes on from there\n",
               exit_status);
  MPI_Abort(MPI_COMM_WORLD, exit_status);
  _exit(exit_status);
}

// "rank 1 has not entered allreduce of step 812 for 60 s; ranks 0, 2 and 3 are waiting",
// led by a rank's crash or a backend's failure where one is known.
std::string Watchdog::compose(const Report* reports, int count) const {
  for (int i = 0; i < count; ++i)
    if (reports[i].signal)
      return "rank " + std::to_string(reports[i].rank) + " crashed (" +
             signal_name(reports[i].signal) + ") in " + reports[i].operation + " of step " +
             std::to_string(reports[i].step);
  std::string cause;
  for (int i = 0; i < count && cause.empty(); ++i)
    if (reports[i].note[0])
      cause = "rank " + std::to_string(reports[i].rank) + ": " + reports[i].note +
              "; its peers were left inside the backend's call, which no rank can take back: ";
  return cause + waiting_text(reports, count);
}

std::string Watchdog::waiting_text(const Report* reports, int count) const {
  // The operation most reporters wait in is the one the missing ranks have not reached.
  std::map<std::pair<std::string, std::uint64_t>, std::vector<int>> waiting;
  for (int i = 0; i < count; ++i)
    waiting[{reports[i].operation, reports[i].step}].push_back(reports[i].rank);
  const auto common = std::max_element(
      waiting.begin(), waiting.end(),
      [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  const std::string& operation = common->first.first;
  const std::uint64_t step = common->first.second;
  int group_size = 0;
  double waited = 0;
  for (int i = 0; i < count; ++i) {
    group_size = std::max(group_size, reports[i].group_size);
    waited = std::max(waited, reports[i].waited_s);
  }
  std::vector<int> missing;
  for (int r = 0; r < std::min(group_size, size_); ++r)
    if (std::find(common->second.begin(), common->second.end(), r) == common->second.end())
      missing.push_back(r);
  const std::string where = operation + " of step " + std::to_string(step);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", waited);
  std::string message;
  if (missing.empty()) {
    message = "ranks " + rank_list(common->second) + " have been in " + where + " for " + seconds +
              " s (more than timeout_s)";
  } else {
    message = std::string(missing.size() == 1 ? "rank " : "ranks ") + rank_list(missing) +
              (missing.size() == 1 ? " has" : " have") + " not entered " + where + " for " +
              seconds + " s; " + (common->second.size() == 1 ? "rank " : "ranks ") +
              rank_list(common->second) + (common->second.size() == 1 ? " is" : " are") +
              " waiting";
  }
  for (int i = 0; i < count; ++i)  // ranks stuck somewhere else say where
    if (reports[i].operation != operation || reports[i].step != step)
      message += "; rank " + std::to_string(reports[i].rank) + " is in " + reports[i].operation +
                 " of step " + std::to_string(reports[i].step);
  return message;
}

WatchedOperation::WatchedOperation(Watchdog* watchdog, const char* operation, std::uint64_t step,
                                   int group_size)
    : watchdog_(watchdog) {
  if (!watchdog_) return;
  outer_ = watchdog_->current();
  watchdog_->enter(operation, step, group_size);
}

WatchedOperation::~WatchedOperation() {
  if (!watchdog_) return;
  if (outer_.operation)
    watchdog_->restore(outer_);
  else
    watchdog_->leave();
}

}  // namespace harness
