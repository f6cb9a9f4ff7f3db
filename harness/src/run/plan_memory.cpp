#include "run/plan_memory.h"

#include <limits>

#include "common/available_memory.h"

namespace harness {
namespace {

// Memory one planned trial takes on a rank through validation and the dry run: measured with
// /usr/bin/time -v (maximum resident set size) on dry runs of 100000-trial sweeps, less a
// one-trial dry run's: about 2.9 KB per collective trial and 6.2 KB per train trial
// (2026-12-05); rounded up.
constexpr std::uint64_t kPlannedTrialBytes = 8 * 1024;

}  // namespace

std::string plan_memory_problem(const Experiment& experiment, int ranks_on_host) {
  const std::uint64_t trials = planned_trial_count(experiment);
  const std::uint64_t ranks = static_cast<std::uint64_t>(ranks_on_host < 1 ? 1 : ranks_on_host);
  constexpr std::uint64_t kMost = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t needed =
      trials > kMost / (kPlannedTrialBytes * ranks) ? kMost : trials * kPlannedTrialBytes * ranks;
  const std::string shortfall = memory_shortfall(needed);
  if (shortfall.empty()) return "";
  return "/max_trials: the sweep expands to " + std::to_string(trials) +
         " trials, which every rank holds in memory (about " +
         std::to_string(kPlannedTrialBytes / 1024) + " KB each, on " + std::to_string(ranks) +
         " rank(s) of this host): it " + shortfall + "; shrink the sweep (max_trials = " +
         std::to_string(experiment.max_trials) + " allows more than this host can plan)";
}

}  // namespace harness
