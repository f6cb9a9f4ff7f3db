// summary.csv: one row per trial, one column per scalar field of the records (dotted names;
// arrays are left out), rewritten whole as trials finish (results/rewritten_file.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/rewritten_file.h"

namespace harness {

class SummaryCsv final : public RewrittenFile {
 public:
  explicit SummaryCsv(const std::string& directory) : RewrittenFile(directory + "/summary.csv") {}
  std::string contents(const std::vector<TrialRun>& all) const override;
};

// Scalars of a record flattened to dotted column names; arrays are left out.
void flatten_scalars(const Json& value, const std::string& prefix,
                     std::vector<std::pair<std::string, Json>>* out);

}  // namespace harness
