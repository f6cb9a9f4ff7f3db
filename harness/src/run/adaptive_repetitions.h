// Adaptive repetitions: which sweep points run again after the planned repetitions, judged on
// rank 0 from the records so far. Decisions read only records of earlier repetitions, so a
// resumed run makes the same ones.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/trial_run.h"
#include "run/run_meta.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

// How uncertain a point's least settled speed figure (training samples/s; busbw per message
// size) still is under the estimator: PointEstimate::width (the median's interval half-width,
// or the K-th fastest's distance from the fastest, infinite with fewer than K values); 0 when
// no figure has two measured values.
double widest_relative_width(const std::vector<TrialRun>& point_records,
                             const Estimator& estimator);

// The target as the console says it: "+-5%" (median) or "5% between the 3 fastest" (k_best).
std::string target_text(const AdaptiveRepetitions& settings, const Estimator& estimator);

// One trial per sweep point, in the order points first run; points measured once
// (oversubscribed: once) are not among them.
std::vector<Trial> one_trial_per_point(const std::vector<Trial>& trials);

class AdaptivePlanner {
 public:
  AdaptivePlanner(const AdaptiveRepetitions& settings, const Estimator& estimator,
                  int planned_repetitions, std::vector<Trial> points);

  const std::vector<Trial>& points() const { return points_; }

  // Indices into points() of those that get `repetition` (>= the planned ones): every point
  // still less settled than the target, judged on its records of earlier repetitions.
  std::vector<std::size_t> points_to_repeat(const std::vector<TrialRun>& records,
                                            int repetition) const;

  // Wall time the extra trials recorded so far took, and whether another may start.
  double seconds_spent(const std::vector<TrialRun>& records) const;
  bool budget_left(const std::vector<TrialRun>& records) const;

  // For meta.json and the console: trials, time, and the points still wider than the target.
  AdaptiveSummary summary(const std::vector<TrialRun>& records) const;

 private:
  bool is_extra(const TrialRun& record) const;  // a trial beyond the planned repetitions
  std::vector<TrialRun> records_of(std::size_t point, const std::vector<TrialRun>& records,
                                   int before_repetition) const;
  AdaptiveRepetitions settings_;
  Estimator estimator_;
  int planned_;
  std::vector<Trial> points_;
};

}  // namespace harness
