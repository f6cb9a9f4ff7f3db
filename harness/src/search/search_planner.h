// The search as a function of the records: replaying them from the start decides every rung
// again and names the next trial, so a resumed search continues where it stopped and decides
// the same. Successive halving (Li et al. 2017) runs one bracket over every configuration;
// Hyperband (Li et al. 2018) several, each over a random subset, from many configurations at
// little resource to few at the full one; grid one rung at the full resource.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "common/json.h"
#include "metrics/point_estimate.h"
#include "record/trial_run.h"
#include "search/rung_decision.h"
#include "search/search_summary.h"
#include "spec/search_settings.h"
#include "spec/trial.h"

namespace harness {

struct SearchRung {
  std::size_t bracket = 0;
  std::size_t rung = 0;   // within its bracket
  std::size_t rungs = 0;  // in its bracket
  int resource = 0;       // repetitions or epochs each configuration had
  bool partial = false;   // cut short by the budget
  bool screening = false;  // timed for first_rung_time_share of the window
  RungDecision decision;
};

// A trial of the search: which configuration, at which rung's resource, which repetition.
struct PlannedTrial {
  std::size_t configuration = 0;
  int level = 0;  // the rung's repetitions or epochs
  int repetition = 0;
  bool screening = false;  // timed for first_rung_time_share of its min_time_s
};

struct SearchState {
  std::vector<SearchRung> rungs;     // decided so far, in order
  std::optional<PlannedTrial> next;  // the next trial to run; none: the search has ended
  std::string stopped;               // why it ended
  std::size_t trials = 0;            // the search's trials recorded
  double seconds = 0;                // their wall time
  std::optional<RungEntry> winner, runner_up;
  bool distinguishable = false;
};

class SearchPlanner {
 public:
  // `configurations`: one trial per sweep point (repetition 0).
  SearchPlanner(const SearchSettings& search, const Estimator& estimator, std::uint64_t seed,
                std::vector<Trial> configurations);

  const std::vector<Trial>& configurations() const { return configurations_; }

  SearchState replay(const std::vector<TrialRun>& records) const;

  // The trial itself, the same on every rank.
  Trial trial(const PlannedTrial& planned) const;
  // Its key, computed once per planner: replay() asks for every planned trial each time.
  const std::string& key(const PlannedTrial& planned) const;

  // search.json: the settings, every rung, the winner and runner-up, what it cost and what
  // the grid would have.
  SearchSummary summary(const SearchState& state, const std::vector<TrialRun>& records) const;

  // The console's line for a rung, and for the end.
  std::string rung_line(const SearchRung& rung) const;
  std::string end_line(const SearchState& state) const;

 private:
  struct Bracket {
    std::vector<std::size_t> configurations;
    std::vector<int> levels;  // resource per rung
  };
  struct BracketProgress;
  struct PlanWalk;
  std::vector<std::vector<PlannedTrial>> rung_plan(const BracketProgress& progress, int level,
                                                   bool screening) const;
  bool screens(const Bracket& bracket, std::size_t rung) const;
  bool gather_rung(const std::vector<std::vector<PlannedTrial>>& planned, PlanWalk& walk,
                   std::vector<std::vector<TrialFigure>>* figures, bool* budget_spent) const;
  RungDecision decide(const BracketProgress& progress,
                      const std::vector<std::vector<TrialFigure>>& figures, bool final_rung) const;
  void carry_forward(const RungDecision& decision, BracketProgress* progress) const;
  bool replay_bracket(const Bracket& bracket, PlanWalk& walk, std::vector<RungDecision>* finals,
                      bool* budget_spent) const;
  void choose_winner(const std::vector<RungDecision>& finals, SearchState* state) const;
  std::string stop_reason(const SearchState& state, bool budget_spent) const;
  std::vector<int> levels() const;
  std::vector<Bracket> brackets() const;
  int full_epochs(std::size_t configuration) const;
  std::vector<PlannedTrial> rung_trials(std::size_t configuration, int level, int repetitions,
                                        bool screening) const;
  double min_time_s(std::size_t configuration) const;
  Trial screening_trial(const Trial& full) const;
  Json winner_axes(std::size_t configuration) const;
  // What every configuration at the full resource would cost: trials, and seconds estimated
  // from the trials recorded (lower epochs scaled up).
  GridCost grid_cost(const std::vector<TrialRun>& records) const;
  SearchRungSummary rung_summary(const SearchRung& rung) const;
  std::string label(std::size_t configuration) const;
  std::string closest_rival(const RungDecision& decision) const;

  SearchSettings search_;
  Estimator estimator_;
  std::uint64_t seed_;
  std::vector<Trial> configurations_;
  mutable std::map<std::tuple<std::size_t, int, int, bool>, std::string> keys_;  // key() cache
};

}  // namespace harness
