// Whether a results folder's trials bear out its search.json: the winner's and the runner-up's
// figures must lie within what their trials measured. A search.json changed after the run
// would otherwise show a claim the records do not hold. The scripts apply the same rule
// (scripts/harness_analysis/search.py, disagreement).
#pragma once

#include <string>
#include <vector>

#include "common/json.h"

namespace harness {

// Why the records (trials.jsonl's, in the newest layout) do not bear out `search` (search.json
// as read); "" when they do.
std::string search_disagreement(const Json& search, const std::vector<Json>& records);

}  // namespace harness
