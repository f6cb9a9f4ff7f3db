// A record's figure under the search's objective, and a configuration's standing over its
// records: the estimate with its interval, as the report computes it, or why there is none.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "metrics/point_estimate.h"
#include "record/trial_run.h"
#include "spec/search_settings.h"

namespace harness {

// One trial's figure. For time_to_target a trial that trained without reaching the target
// has no time, only the lower bound its training took (at the same step rate).
struct TrialFigure {
  bool usable = false;    // a measured record with the figure
  bool reached = true;    // time_to_target: the target was reached
  double value = 0;       // the figure (time_to_target: seconds, when reached)
  double at_least = 0;    // time_to_target, not reached: seconds trained without reaching it
  double final_loss = 0;  // train records: the last epoch's loss
  // The quiet gate's canary reading (1: full speed) where it could not keep the measurement
  // quiet: the machine ran up to this much slower than its own best while it was taken.
  double slowdown = 1;
  std::string problem;    // why it is not usable ("failed: ...")
};

TrialFigure figure_of(const TrialRun& run, const SearchSettings& search);

// A configuration at a rung. Higher `goodness` is better whatever the objective's direction,
// so decisions compare one way.
struct Standing {
  bool usable = false;
  bool reached = true;                  // time_to_target: the median trial reached the target
  double value = 0, low = 0, high = 0;  // in the objective's unit; value infinite if not reached
  double final_loss = 0;
  int values = 0;    // trials behind it
  double width = 0;  // relative half-width of [low, high]
  std::string note;  // why it is unusable or unreached
};

// The estimator's figure and interval over the trials' values; a single value gets
// +-noise_floor, its better side stretched to what it would read at full speed where it was
// measured in a slow spell. time_to_target: reached when at least half reached the target (the others
// count with the time they trained, a lower bound); otherwise value is infinite and `low`
// the median time trained without reaching it.
Standing standing_of(const std::vector<TrialFigure>& figures, const SearchSettings& search,
                     const Estimator& estimator);

// True when `other`'s interval lies wholly on the worse side of `best`'s.
bool clearly_worse(const Standing& other, const Standing& best, const SearchSettings& search);

// Whether a is ranked before b: usable before unusable, reached before unreached, then the
// better value (unreached: the lower final loss).
bool ranks_before(const Standing& a, const Standing& b, const SearchSettings& search);

// "402k [398k, 410k] samples/s", "3.1 s [2.9, 3.4] to the target", "not reached in 6.2 s".
std::string standing_text(const Standing& standing, const SearchSettings& search);

}  // namespace harness
