// One rung's decision: its configurations ranked, which go on and why. A configuration is
// dropped only when its interval lies clearly on the worse side of the best's (the report's
// rule for "outside the noise"); on an epochs rung the top 1/eta go on even so, as more
// training may change their order (successive halving's rule).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "search/objective_figure.h"
#include "spec/search_settings.h"

namespace harness {

struct RungEntry {
  std::size_t configuration = 0;  // index into the search's configurations
  Standing standing;
  bool kept = false;
  // Speeds: whether it gets the next rung's repetitions. Successive halving's budget goes to
  // the top 1/eta; a survivor below them stays in the running with the figure it has, and is
  // dropped once the best's narrowing interval clears it.
  bool repeated = false;
  std::string reason;
};

struct RungDecision {
  std::vector<RungEntry> ranking;  // best first
  // The best's interval clears every other's, or it stands alone.
  bool distinguishable = false;
  std::size_t kept() const;
};

// Whether every configuration of `others` but `best` itself is clearly worse than `best`.
bool clearly_ahead(const RungEntry& best, const std::vector<RungEntry>& others,
                   const SearchSettings& search);

RungDecision decide_rung(const std::vector<RungEntry>& entries, const SearchSettings& search,
                         bool last_rung);

}  // namespace harness
