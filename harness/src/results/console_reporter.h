// Rank 0's progress: one line per trial when it ends (k/n, status, swept settings, the
// headline figure with its interval, why it is noisy, elapsed and ETA); -v adds a line when
// it starts and the nccl-tests table of a collective. Console output only; files are the
// ResultsStore's job.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "common/json.h"
#include "record/trial_run.h"
#include "spec/trial.h"

namespace harness {

enum class Verbosity { kQuiet, kNormal, kVerbose };

class ConsoleReporter {
 public:
  // total_trials 0: open-ended (a search decides as it goes): "[k]" and no ETA.
  ConsoleReporter(Verbosity verbosity, std::size_t total_trials, std::FILE* out = stdout);

  void message(const std::string& text) const;  // shown unless quiet
  void detail(const std::string& text) const;   // shown when verbose
  void trial_started(const Trial& trial, std::size_t position);
  void trial_finished(const TrialRun& run, std::size_t position);
  void skipped_as_done(std::size_t count) const;
  void extend(std::size_t more_trials) { total_ += more_trials; }  // adaptive repetitions
  std::size_t noisy_trials() const { return noisy_; }

 private:
  std::string label(std::size_t position) const;
  Verbosity verbosity_;
  std::size_t total_;
  std::FILE* out_;
  std::size_t finished_ = 0;
  double seconds_spent_ = 0;
  std::size_t noisy_ = 0;
};

// nccl-tests-style table of a collective record's points.
std::string collective_table(const CollectiveFigures& collective);

}  // namespace harness
