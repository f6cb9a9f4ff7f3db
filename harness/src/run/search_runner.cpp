#include "run/search_runner.h"

#include "mpi/string_broadcast.h"
#include "run/adaptive_repetitions.h"
#include "run/leader_step.h"
#include "search/search_planner.h"

namespace harness {
namespace {

// Rank 0's choice, shared: the next trial, or none when the search has ended.
std::optional<PlannedTrial> share_next(const std::optional<PlannedTrial>& next) {
  Json text;
  if (next) text = {next->configuration, next->level, next->repetition};
  const Json shared = Json::parse(broadcast_string(text.dump(), 0, MPI_COMM_WORLD));
  if (shared.is_null()) return std::nullopt;
  return PlannedTrial{shared[0].get<std::size_t>(), shared[1].get<int>(), shared[2].get<int>()};
}

}  // namespace

SearchSummary run_search(const Experiment& experiment, const std::vector<Trial>& trials, bool leader,
                const SearchHooks& hooks) {
  const SearchPlanner planner(experiment.search, experiment.estimator, experiment.seed,
                              one_trial_per_point(trials));
  std::size_t position = 0, rungs_told = 0;
  SearchState state;
  for (;;) {
    on_leader(leader, [&] {
      state = planner.replay(hooks.records());
      if (rungs_told == state.rungs.size()) return;
      for (; rungs_told < state.rungs.size(); ++rungs_told)
        hooks.reporter->message(planner.rung_line(state.rungs[rungs_told]));
      hooks.write(planner.summary(state, hooks.records()));  // once for the rungs just decided
    });
    const auto next = share_next(leader ? state.next : std::nullopt);
    if (!next) break;
    hooks.run(planner.trial(*next), position++);
  }
  if (!leader) return {};
  const SearchSummary summary = planner.summary(state, hooks.records());
  hooks.write(summary);
  hooks.reporter->message(planner.end_line(state));
  return summary;
}

}  // namespace harness
