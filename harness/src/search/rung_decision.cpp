#include "search/rung_decision.h"

#include <algorithm>

namespace harness {
namespace {

std::string versus_best(const RungEntry& entry, const RungEntry& best,
                        const SearchSettings& search) {
  return standing_text(entry.standing, search) + " against the best's " +
         standing_text(best.standing, search);
}

// Nobody reached the target yet (time_to_target): the lowest final losses go on.
void rank_by_loss(RungDecision* decision, std::size_t share) {
  for (std::size_t i = 0; i < decision->ranking.size(); ++i) {
    RungEntry& entry = decision->ranking[i];
    entry.kept = entry.repeated = entry.standing.usable && i < share;
    entry.reason = entry.kept ? "among the top 1/eta by final loss (none has reached the target)"
                              : "below the top 1/eta by final loss (none has reached the target)";
    if (!entry.standing.usable) entry.reason = "no figure: " + entry.standing.note;
  }
}

void judge_against_best(RungDecision* decision, std::size_t share, const SearchSettings& search,
                        bool last_rung) {
  const RungEntry& best = decision->ranking.front();
  for (std::size_t i = 1; i < decision->ranking.size(); ++i) {
    RungEntry& entry = decision->ranking[i];
    const Standing& s = entry.standing;
    if (!s.usable) {
      entry.reason = "no figure: " + s.note;
    } else if (!s.reached && last_rung) {
      entry.reason = "never reached the target: " + standing_text(s, search);
    } else if (!clearly_worse(s, best.standing, search)) {
      entry.kept = true;
      entry.reason = "within noise of the best: " + versus_best(entry, best, search);
    } else if (search.resource() == SearchResource::kEpochs && i < share && !last_rung) {
      entry.kept = true;
      entry.reason = "in the top 1/eta (more epochs may change the order): " +
                     versus_best(entry, best, search);
    } else {
      entry.reason = "clearly worse than the best: " + versus_best(entry, best, search);
    }
  }
}

// Epochs rungs train every survivor further; repetitions go to the top 1/eta only.
void mark_repeated(RungDecision* decision, std::size_t share, const SearchSettings& search) {
  for (std::size_t i = 0; i < decision->ranking.size(); ++i) {
    RungEntry& entry = decision->ranking[i];
    entry.repeated = entry.kept && (search.resource() == SearchResource::kEpochs || i < share);
    if (entry.kept && !entry.repeated)
      entry.reason += " (below the top 1/eta: kept with its figure, not repeated)";
  }
}

}  // namespace

bool clearly_ahead(const RungEntry& best, const std::vector<RungEntry>& others,
                   const SearchSettings& search) {
  // Every other, not only the runner-up: one that has not reached the target ranks after
  // those that have, yet the time it trained may still be below the best's. One without a
  // figure (not run before the budget was spent, or failed) can be neither beaten nor tied:
  // no claim is made against it.
  if (!best.standing.usable) return false;
  return std::all_of(others.begin(), others.end(), [&](const RungEntry& other) {
    return other.configuration == best.configuration ||
           (other.standing.usable && clearly_worse(other.standing, best.standing, search));
  });
}

std::size_t RungDecision::kept() const {
  return static_cast<std::size_t>(
      std::count_if(ranking.begin(), ranking.end(), [](const RungEntry& e) { return e.kept; }));
}

RungDecision decide_rung(const std::vector<RungEntry>& entries, const SearchSettings& search,
                         bool last_rung) {
  RungDecision decision;
  decision.ranking = entries;
  std::stable_sort(decision.ranking.begin(), decision.ranking.end(),
                   [&](const RungEntry& a, const RungEntry& b) {
                     return ranks_before(a.standing, b.standing, search);
                   });
  for (auto& entry : decision.ranking) entry.kept = entry.repeated = false;
  if (decision.ranking.empty()) return decision;
  const std::size_t n = decision.ranking.size();
  const std::size_t share = (n + search.eta - 1) / search.eta;
  RungEntry& best = decision.ranking.front();
  if (!best.standing.usable || !best.standing.reached) {
    rank_by_loss(&decision, share);
    return decision;
  }
  best.kept = true;
  best.reason = "the best: " + standing_text(best.standing, search);
  judge_against_best(&decision, share, search, last_rung);
  mark_repeated(&decision, share, search);
  decision.distinguishable = clearly_ahead(best, decision.ranking, search);
  return decision;
}

}  // namespace harness
