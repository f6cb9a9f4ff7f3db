#include "search/search_planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

#include "common/random.h"
#include "spec/axes_text.h"
#include "spec/trial_expansion.h"

namespace harness {
namespace {

using RecordIndex = std::map<std::string, const TrialRun*>;  // trial key -> its record

RecordIndex index_records(const std::vector<TrialRun>& runs) {
  RecordIndex index;
  for (const auto& run : runs) index[run.identity.key] = &run;
  return index;
}

SearchFigure search_figure(const Standing& s) {
  const auto finite = [](double v) {
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
  };
  SearchFigure figure{finite(s.value), finite(s.low), finite(s.high), s.values, std::nullopt, ""};
  if (!s.reached) figure.reached = false;
  if (!s.usable) figure.problem = s.note;
  return figure;
}

const char* resource_name(const SearchSettings& search) {
  return search.resource() == SearchResource::kRepetitions ? "repetitions" : "epochs";
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%g%%", share * 100);
  return text;
}

// Stops at a decision that settles the question: the order of speeds does not change with
// more repetitions, nor a time to target once reached; an AUROC may with more epochs.
bool may_stop_early(const SearchSettings& search) {
  return search.resource() == SearchResource::kRepetitions ||
         search.objective == SearchObjective::kTimeToTarget;
}

}  // namespace

// The walk through the plan: each trial's record, counted once however many rungs use it.
struct SearchPlanner::PlanWalk {
  const RecordIndex& recorded;
  SearchState& state;
  std::set<std::string> visited;

  const TrialRun* record_of(const std::string& key) {
    const auto found = recorded.find(key);
    if (found == recorded.end()) return nullptr;
    if (visited.insert(key).second) {
      ++state.trials;
      state.seconds += found->second->end.wall_time_s;
    }
    return found->second;
  }
};

SearchPlanner::SearchPlanner(const SearchSettings& search, const Estimator& estimator,
                             std::uint64_t seed, std::vector<Trial> configurations)
    : search_(search),
      estimator_(estimator),
      seed_(seed),
      configurations_(std::move(configurations)) {}

int SearchPlanner::full_epochs(std::size_t configuration) const {
  return configurations_[configuration].settings.value("epochs", 1);
}

std::vector<int> SearchPlanner::levels() const {
  int first = search_.min_repetitions, last = search_.max_repetitions;
  if (search_.resource() == SearchResource::kEpochs) {
    first = search_.min_epochs;
    last = first;
    for (std::size_t c = 0; c < configurations_.size(); ++c) last = std::max(last, full_epochs(c));
  }
  std::vector<int> levels;
  for (long long level = first; level < last; level *= search_.eta)
    levels.push_back(static_cast<int>(level));
  levels.push_back(last);
  return levels;
}

std::vector<SearchPlanner::Bracket> SearchPlanner::brackets() const {
  std::vector<std::size_t> all(configurations_.size());
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int> levels = this->levels();
  if (search_.method == SearchMethod::kGrid) return {{all, {levels.back()}}};
  if (search_.method == SearchMethod::kSuccessiveHalving) return {{all, levels}};
  // Hyperband: bracket s starts n_s configurations at level s_max - s.
  const std::size_t s_max = levels.size() - 1;
  std::vector<Bracket> brackets;
  for (std::size_t s = s_max + 1; s-- > 0;) {
    const double wanted = std::ceil(static_cast<double>(s_max + 1) / static_cast<double>(s + 1) *
                                    std::pow(search_.eta, static_cast<double>(s)));
    const std::size_t n = std::min(all.size(), static_cast<std::size_t>(wanted));
    std::vector<std::size_t> drawn = all;
    SplitMix64 rng(seed_ ^ (0x6879706572ULL + s));  // a partial Fisher-Yates shuffle
    for (std::size_t i = 0; i < n; ++i) std::swap(drawn[i], drawn[i + rng.below(drawn.size() - i)]);
    drawn.resize(n);
    std::sort(drawn.begin(), drawn.end());
    brackets.push_back(
        {drawn, std::vector<int>(levels.begin() + static_cast<long>(s_max - s), levels.end())});
  }
  return brackets;
}

// A short screening run: its timing window and its wait for a quiet machine both cut to the
// share (a wait of a second for each of hundreds of 10 ms trials would be most of the search).
Trial SearchPlanner::screening_trial(const Trial& full) const {
  Trial trial = full;
  for (const char* setting : {"min_time_s", "quiet_wait_s"})
    if (full.settings.contains(setting)) {
      const double cut = full.settings[setting].get<double>() * search_.first_rung_time_share;
      // To the nanosecond: 0.05 x 0.1 reads 0.005 in the record.
      trial = with_setting(trial, setting, std::round(cut * 1e9) / 1e9);
    }
  return trial;
}

double SearchPlanner::min_time_s(std::size_t configuration) const {
  return configurations_[configuration].settings.value("min_time_s", 0.0);
}

Trial SearchPlanner::trial(const PlannedTrial& planned) const {
  Trial base = configurations_[planned.configuration];
  if (search_.resource() == SearchResource::kEpochs)
    base =
        with_setting(base, "epochs", std::min(planned.level, full_epochs(planned.configuration)));
  if (planned.screening) base = screening_trial(base);
  return with_repetition(base, planned.repetition, seed_);
}

const std::string& SearchPlanner::key(const PlannedTrial& planned) const {
  const auto id =
      std::make_tuple(planned.configuration, planned.level, planned.repetition, planned.screening);
  auto found = keys_.find(id);
  if (found == keys_.end()) found = keys_.emplace(id, trial(planned).key).first;
  return found->second;
}

std::vector<PlannedTrial> SearchPlanner::rung_trials(std::size_t configuration, int level,
                                                     int repetitions, bool screening) const {
  std::vector<PlannedTrial> trials;
  for (int r = 0; r < repetitions; ++r) trials.push_back({configuration, level, r, screening});
  return trials;
}

// A bracket's configurations between rungs: who goes on, with how many repetitions, and who
// is narrow enough to need no more.
struct SearchPlanner::BracketProgress {
  std::vector<std::size_t> survivors;
  std::vector<int> given;      // repetitions so far, per configuration
  std::vector<bool> settled;   // narrow enough already, per configuration
  std::vector<bool> screened;  // its figure is from the screening window, per configuration
};

// Speeds screen at a bracket's first rung when more rungs follow: a configuration's first
// trial is most of the cost of a search over many configurations.
bool SearchPlanner::screens(const Bracket& bracket, std::size_t rung) const {
  return rung == 0 && bracket.levels.size() > 1 &&
         search_.resource() == SearchResource::kRepetitions && search_.first_rung_time_share < 1;
}

// A settled configuration keeps the trials it has (screening ones included); one going on
// from a screening rung starts its full-window repetitions from the first.
std::vector<std::vector<PlannedTrial>> SearchPlanner::rung_plan(const BracketProgress& progress,
                                                                int level, bool screening) const {
  std::vector<std::vector<PlannedTrial>> planned;
  for (const auto c : progress.survivors) {
    int repetitions = search_.min_repetitions;
    bool screened = false;
    if (search_.resource() == SearchResource::kRepetitions) {
      screened = screening || (progress.screened[c] && progress.settled[c]);
      repetitions = progress.settled[c] ? progress.given[c] : std::max(level, progress.given[c]);
    }
    planned.push_back(rung_trials(c, level, repetitions, screened));
  }
  return planned;
}

// The rung's figures from the records, interleaved: repetition r of every configuration before
// r + 1 of any. Stops at the first trial not recorded: it is the next one, unless the budget is
// spent.
bool SearchPlanner::gather_rung(const std::vector<std::vector<PlannedTrial>>& planned,
                                PlanWalk& walk, std::vector<std::vector<TrialFigure>>* figures,
                                bool* budget_spent) const {
  std::size_t most = 0;
  for (const auto& trials : planned) most = std::max(most, trials.size());
  for (std::size_t r = 0; r < most && !*budget_spent; ++r)
    for (std::size_t i = 0; i < planned.size() && !*budget_spent; ++i) {
      if (r >= planned[i].size()) continue;
      if (const TrialRun* record = walk.record_of(key(planned[i][r]))) {
        (*figures)[i].push_back(figure_of(*record, search_));
      } else if (walk.state.seconds >= search_.budget_s) {
        *budget_spent = true;
      } else {
        walk.state.next = planned[i][r];
        return false;
      }
    }
  return true;
}

RungDecision SearchPlanner::decide(const BracketProgress& progress,
                                   const std::vector<std::vector<TrialFigure>>& figures,
                                   bool final_rung) const {
  std::vector<RungEntry> entries;
  for (std::size_t i = 0; i < progress.survivors.size(); ++i) {
    RungEntry entry{progress.survivors[i], standing_of(figures[i], search_, estimator_), false,
                    false, ""};
    if (figures[i].empty()) entry.standing.note = "not run: the budget was spent";
    entries.push_back(entry);
  }
  return decide_rung(entries, search_, final_rung);
}

void SearchPlanner::carry_forward(const RungDecision& decision, BracketProgress* progress) const {
  progress->survivors.clear();
  for (const auto& entry : decision.ranking) {
    progress->given[entry.configuration] = entry.standing.values;
    progress->settled[entry.configuration] =
        !entry.repeated || (entry.standing.usable && entry.standing.values > 1 &&
                            entry.standing.width <= search_.settled_width);
    if (entry.kept) progress->survivors.push_back(entry.configuration);
  }
}

// One bracket's rungs; false when a trial is still to run (walk.state.next names it).
bool SearchPlanner::replay_bracket(const Bracket& bracket, PlanWalk& walk,
                                   std::vector<RungDecision>* finals, bool* budget_spent) const {
  const std::size_t n = configurations_.size();
  BracketProgress progress{bracket.configurations, std::vector<int>(n, 0),
                           std::vector<bool>(n, false), std::vector<bool>(n, false)};
  for (std::size_t k = 0; k < bracket.levels.size(); ++k) {
    const int level = bracket.levels[k];
    const bool screening = screens(bracket, k);
    const auto planned = rung_plan(progress, level, screening);
    std::vector<std::vector<TrialFigure>> figures(planned.size());
    if (!gather_rung(planned, walk, &figures, budget_spent)) return false;
    const bool last = k + 1 == bracket.levels.size();
    const SearchRung rung{finals->size(),
                          k,
                          bracket.levels.size(),
                          level,
                          *budget_spent,
                          screening,
                          decide(progress, figures, last || *budget_spent)};
    walk.state.rungs.push_back(rung);
    for (std::size_t i = 0; i < planned.size(); ++i)
      progress.screened[progress.survivors[i]] = !planned[i].empty() && planned[i][0].screening;
    carry_forward(rung.decision, &progress);
    // A screening rung never ends the bracket: the winner's figure is a whole window's.
    const bool settles = !screening && (progress.survivors.size() <= 1 ||
                                        (rung.decision.distinguishable && may_stop_early(search_)));
    if (last || *budget_spent || progress.survivors.empty() || settles) {
      finals->push_back(rung.decision);
      break;
    }
  }
  return true;
}

SearchState SearchPlanner::replay(const std::vector<TrialRun>& records) const {
  SearchState state;
  const RecordIndex index = index_records(records);
  PlanWalk walk{index, state, {}};
  std::vector<RungDecision> finals;  // each bracket's last decision
  bool budget_spent = false;
  for (const Bracket& bracket : brackets()) {
    if (budget_spent) break;
    if (!replay_bracket(bracket, walk, &finals, &budget_spent)) return state;
  }
  choose_winner(finals, &state);
  state.stopped = stop_reason(state, budget_spent);
  return state;
}

// The winner: the best of the brackets' last rungs, each configuration at its best there.
void SearchPlanner::choose_winner(const std::vector<RungDecision>& finals,
                                  SearchState* state) const {
  std::vector<RungEntry> candidates;
  for (const auto& decision : finals)
    for (const auto& entry : decision.ranking) candidates.push_back(entry);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const RungEntry& a, const RungEntry& b) {
                     return ranks_before(a.standing, b.standing, search_);
                   });
  std::vector<RungEntry> distinct;
  std::set<std::size_t> seen;
  for (const auto& entry : candidates)
    if (seen.insert(entry.configuration).second) distinct.push_back(entry);
  if (!distinct.empty() && distinct[0].standing.usable && distinct[0].standing.reached)
    state->winner = distinct[0];
  if (state->winner && distinct.size() > 1) state->runner_up = distinct[1];
  state->distinguishable = state->winner && clearly_ahead(*state->winner, distinct, search_);
}

std::string SearchPlanner::stop_reason(const SearchState& state, bool budget_spent) const {
  if (state.winner && !state.runner_up && configurations_.size() == 1) return "one configuration";
  if (budget_spent) {
    char text[96];
    std::snprintf(text, sizeof text, "budget_s (%g s) spent", search_.budget_s);
    return text;
  }
  if (!state.winner)
    return search_.objective == SearchObjective::kTimeToTarget
               ? "no configuration reached the target"
               : "no configuration has a figure";
  if (!state.runner_up) return "one configuration left: every other was clearly worse";
  if (!state.runner_up->standing.usable) return "no other configuration has a figure";
  if (state.distinguishable) return "the winner is distinguishable from the runner-up";
  return "the last rung: the winner is within noise of the runner-up";
}

Json SearchPlanner::winner_axes(std::size_t configuration) const {
  Json axes = configurations_[configuration].axes;
  if (!configurations_[configuration].part.empty())
    axes["part"] = configurations_[configuration].part;
  return axes;
}

std::string SearchPlanner::label(std::size_t configuration) const {
  const Json axes = winner_axes(configuration);
  return axes.empty() ? std::string("(the settings)") : trial_label(axes);
}

SearchRungSummary SearchPlanner::rung_summary(const SearchRung& rung) const {
  SearchRungSummary out;
  out.bracket = rung.bracket;
  out.rung = rung.rung;
  (search_.resource() == SearchResource::kRepetitions ? out.repetitions : out.epochs) =
      rung.resource;
  if (rung.screening) out.time_share = search_.first_rung_time_share;
  out.partial = rung.partial;
  out.kept = rung.decision.kept();
  out.distinguishable = rung.decision.distinguishable;
  for (const auto& e : rung.decision.ranking)
    out.configurations.push_back({configurations_[e.configuration].point,
                                  winner_axes(e.configuration), search_figure(e.standing), e.kept,
                                  e.reason});
  return out;
}

SearchSummary SearchPlanner::summary(const SearchState& state,
                                     const std::vector<TrialRun>& records) const {
  SearchSummary out;
  out.method = search_method_name(search_.method);
  out.objective = search_objective_name(search_.objective);
  out.resource = resource_name(search_);
  out.eta = search_.eta;
  out.budget_s = search_.budget_s;
  out.noise_floor = search_.noise_floor;
  out.estimator = estimator_name(estimator_.kind);
  out.message_bytes = search_.message_bytes;
  out.configurations = configurations_.size();
  out.finished = !state.next.has_value();
  if (!state.next) out.stopped = state.stopped;
  if (state.winner) {
    out.winner = winner_axes(state.winner->configuration);
    out.winner_point = configurations_[state.winner->configuration].point;
    out.winner_figure = search_figure(state.winner->standing);
  }
  if (state.runner_up) {
    out.runner_up = winner_axes(state.runner_up->configuration);
    out.runner_up_figure = search_figure(state.runner_up->standing);
  }
  out.distinguishable = state.distinguishable;
  for (const auto& rung : state.rungs) out.rungs.push_back(rung_summary(rung));
  out.trials = state.trials;
  out.seconds_spent = state.seconds;
  out.grid = grid_cost(records);
  if (out.grid.seconds_estimated && *out.grid.seconds_estimated > 0)
    out.grid.share_spent = state.seconds / *out.grid.seconds_estimated;
  return out;
}

GridCost SearchPlanner::grid_cost(const std::vector<TrialRun>& records) const {
  std::map<std::string, std::pair<double, int>> by_point;  // point -> wall seconds, trials
  for (const auto& record : records) {
    auto& [seconds, trials] = by_point[record.identity.point];
    seconds += record.end.wall_time_s;
    ++trials;
  }
  const auto mean_of = [&](const std::string& point) {
    const auto found = by_point.find(point);
    return found == by_point.end() ? 0.0 : found->second.first / found->second.second;
  };
  std::vector<double> full(configurations_.size(), 0.0);
  double known = 0;
  int known_count = 0;
  for (std::size_t c = 0; c < configurations_.size(); ++c) {
    full[c] = mean_of(configurations_[c].point);
    if (full[c] == 0 && search_.resource() == SearchResource::kEpochs)
      for (const int level : levels())
        if (level < full_epochs(c))
          if (const double seconds = mean_of(trial({c, level, 0}).point); seconds > 0)
            full[c] = seconds * full_epochs(c) / level;
    // A screened configuration: its trial's time and the rest of the window.
    if (full[c] == 0 && search_.resource() == SearchResource::kRepetitions)
      if (const double seconds = mean_of(trial({c, 1, 0, true}).point); seconds > 0)
        full[c] = seconds + min_time_s(c) * (1 - search_.first_rung_time_share);
    if (full[c] > 0) {
      known += full[c];
      ++known_count;
    }
  }
  const int per_configuration = search_.resource() == SearchResource::kRepetitions
                                    ? search_.max_repetitions
                                    : search_.min_repetitions;
  double seconds = 0;
  for (const double each : full)
    seconds += (each > 0 ? each : known_count ? known / known_count : 0) * per_configuration;
  return {configurations_.size() * static_cast<std::size_t>(per_configuration),
          known_count ? std::optional<double>(seconds) : std::nullopt, std::nullopt};
}

// The first configuration after the best that is not clearly worse than it.
// The first other configuration with a figure the best is not clearly ahead of; "" when
// every other is clearly behind or has no figure.
std::string SearchPlanner::closest_rival(const RungDecision& decision) const {
  for (std::size_t i = 1; i < decision.ranking.size(); ++i) {
    const Standing& standing = decision.ranking[i].standing;
    if (standing.usable && !clearly_worse(standing, decision.ranking[0].standing, search_))
      return label(decision.ranking[i].configuration);
  }
  return "";
}

std::string SearchPlanner::rung_line(const SearchRung& rung) const {
  const RungDecision& d = rung.decision;
  std::string line = "search: ";
  if (search_.method == SearchMethod::kHyperband)
    line += "bracket " + std::to_string(rung.bracket + 1) + ", ";
  line += "rung " + std::to_string(rung.rung + 1) + " of " + std::to_string(rung.rungs) + " (" +
          (search_.resource() == SearchResource::kRepetitions ? "up to " : "") +
          std::to_string(rung.resource) + " " + resource_name(search_) +
          (rung.screening ? ", " + percent(search_.first_rung_time_share) + " of the timing window"
                          : std::string()) +
          (rung.partial ? ", cut short by the budget" : "") + "): " + std::to_string(d.kept()) +
          " of " + std::to_string(d.ranking.size()) + " go on";
  if (d.ranking.empty()) return line;
  const RungEntry& best = d.ranking.front();
  line += "; best " + label(best.configuration) + " " + standing_text(best.standing, search_);
  std::size_t worse = 0, unusable = 0;
  for (const auto& entry : d.ranking)
    if (!entry.kept) ++(entry.standing.usable ? worse : unusable);
  if (worse) line += "; " + std::to_string(worse) + " dropped";
  if (unusable) line += "; " + std::to_string(unusable) + " without a figure";
  if (!best.standing.reached)
    line += "; none has reached the target yet (ranked by final loss)";
  else if (d.ranking.size() > 1 && d.distinguishable)
    line += "; the best is clearly ahead";
  else if (d.ranking.size() > 1 && !closest_rival(d).empty())
    line += "; the best is within noise of " + closest_rival(d);
  else if (d.ranking.size() > 1)
    line += "; no claim against the others without a figure";
  return line;
}

std::string SearchPlanner::end_line(const SearchState& state) const {
  char spent[96];
  std::snprintf(spent, sizeof spent, "%zu trial(s), %.0f s", state.trials, state.seconds);
  if (!state.winner) return "search: no winner (" + state.stopped + "); " + spent;
  std::string line = "search: winner " + label(state.winner->configuration) + " " +
                     standing_text(state.winner->standing, search_);
  if (state.runner_up && !state.runner_up->standing.usable)
    line += "; the runner-up " + label(state.runner_up->configuration) + " has no figure (" +
            state.runner_up->standing.note + ")";
  else if (state.runner_up)
    line += (state.distinguishable ? "; clearly ahead of " : "; within noise of ") +
            label(state.runner_up->configuration) + " " +
            standing_text(state.runner_up->standing, search_);
  return line + " (" + state.stopped + "); " + spent;
}

}  // namespace harness
