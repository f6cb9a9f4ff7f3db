#include "mpi/watchdog.h"

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

// What a rank tells rank 0 when its operation is overdue. Plain bytes on the wire.
struct Watchdog::Report {
  int rank = -1;
  int group_size = 0;
  std::uint64_t step = 0;
  double waited_s = 0;
  char operation[48] = {};
};

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
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
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

// True (and the report filled) when this rank's operation has lasted past the deadline.
bool Watchdog::overdue(Report* report) const {
  const char* operation = operation_.load();
  if (!operation) return false;
  const double waited = static_cast<double>(now_ns() - entered_ns_.load()) * 1e-9;
  if (waited < timeout_s_) return false;
  report->rank = rank_;
  report->group_size = group_size_.load();
  report->step = step_.load();
  report->waited_s = waited;
  std::snprintf(report->operation, sizeof report->operation, "%s", operation);
  return true;
}

void Watchdog::member_loop() {
  Report report;
  std::int64_t reported_entry = -1;
  Clock::time_point reported_at;
  while (!stop_) {
    std::this_thread::sleep_for(kPoll);
    if (overdue(&report) && reported_entry != entered_ns_.load()) {
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
      if (report.rank > 0 && report.rank < size_) {
        reports[static_cast<std::size_t>(report.rank)] = report;
        reported[static_cast<std::size_t>(report.rank)] = true;
      }
    }
    reported[0] = overdue(&reports[0]);
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
    const std::string message = compose(known.data(), static_cast<int>(known.size()));
    std::fprintf(stderr, "harness: watchdog: %s\n", message.c_str());
    if (on_hang_) on_hang_(message);
    std::fprintf(stderr,
                 "harness: watchdog: aborting the job (exit status %d); finished trials "
                 "are kept, --resume goes on from there\n",
                 kExitHung);
    MPI_Abort(MPI_COMM_WORLD, kExitHung);
  }
}

// "rank 1 has not entered allreduce of step 812 for 60 s; ranks 0, 2 and 3 are waiting".
std::string Watchdog::compose(const Report* reports, int count) const {
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
