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
  if (next) text = {next->configuration, next->level, next->repetition, next->screening};
  const Json shared = Json::parse(broadcast_string(text.dump(), 0, MPI_COMM_WORLD));
  if (shared.is_null()) return std::nullopt;
  return PlannedTrial{shared[0].get<std::size_t>(), shared[1].get<int>(), shared[2].get<int>(),
                      shared[3].get<bool>()};
}

// A trial the planner names again once it is recorded would be run forever: the search stops
// instead, saying so.
bool named_again(const SearchPlanner& planner, const std::optional<PlannedTrial>& next,
                 const std::string& last_key) {
  return next && !last_key.empty() && planner.key(*next) == last_key;
}

}  // namespace

SearchSummary run_search(const Experiment& experiment, const std::vector<Trial>& trials,
                         bool leader, const SearchHooks& hooks) {
  const SearchPlanner planner(experiment.search, experiment.estimator, experiment.seed,
                              one_trial_per_point(trials));
  std::size_t position = 0, rungs_told = 0;
  SearchState state;
  std::string last_key;
  for (;;) {
    on_leader(leader, [&] {
      state = planner.replay(hooks.records());
      if (named_again(planner, state.next, last_key)) {
        hooks.reporter->message("search: trial " + last_key +
                                " was named again after it ran; the search stops here");
        state.next.reset();
        state.stopped = "a trial was named again after it ran";
      }
      if (rungs_told == state.rungs.size()) return;
      for (; rungs_told < state.rungs.size(); ++rungs_told)
        hooks.reporter->message(planner.rung_line(state.rungs[rungs_told]));
      hooks.write(planner.summary(state, hooks.records()));  // once for the rungs just decided
    });
    const auto next = share_next(leader ? state.next : std::nullopt);
    if (!next) break;
    last_key = planner.key(*next);
    hooks.run(planner.trial(*next), position++);
  }
  if (!leader) return {};
  const SearchSummary summary = planner.summary(state, hooks.records());
  hooks.write(summary);
  hooks.reporter->message(planner.end_line(state));
  return summary;
}

}  // namespace harness
