// A sink that keeps one file of the results folder as a function of every record (summary.csv,
// points.csv, aggregates.csv). Writing the whole file after every trial would cost time
// quadratic in the trials (a 2,000-trial sweep spends more time rewriting its CSVs than running
// cheap trials): it is rewritten only once the time since its last write is at least
// kQuietFactor times what that write took, so writing stays a small share of the run and the
// file trails the records by little; and always when the sweep ends.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "results/record_sink.h"

namespace harness {

class RewrittenFile : public RecordSink {
 public:
  // Writing takes at most 1 / (1 + kQuietFactor) of the run's time.
  static constexpr double kQuietFactor = 20;

  explicit RewrittenFile(std::string path) : path_(std::move(path)) {}
  void record_added(const TrialRun& run, const std::vector<TrialRun>& all) final;
  void sweep_ended(const std::vector<TrialRun>& all) final;

  // The file's contents for these records; empty: no file (yet).
  virtual std::string contents(const std::vector<TrialRun>& all) const = 0;

 private:
  void write(const std::vector<TrialRun>& all);

  std::string path_;
  std::chrono::steady_clock::time_point last_write_{};
  double last_write_s_ = 0;
  bool stale_ = false;
};

}  // namespace harness
