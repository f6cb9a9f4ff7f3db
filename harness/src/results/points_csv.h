// points.csv: one row per message size of every collective trial, the table the bandwidth
// plots are made from. Columns: the trial's identity, then collective_point_fields().
#pragma once

#include <string>
#include <utility>

#include "results/rewritten_file.h"

namespace harness {

class PointsCsv final : public RewrittenFile {
 public:
  explicit PointsCsv(const std::string& directory) : RewrittenFile(directory + "/points.csv") {}
  std::string contents(const std::vector<TrialRun>& all) const override;  // empty: no collective
};

}  // namespace harness
