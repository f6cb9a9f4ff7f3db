// aggregates.csv: per sweep point, over its repetitions, each headline figure's n, median,
// min, max and 95% interval of the median (distribution-free; with few repetitions the
// interval is [min, max] and ci_coverage says what it covers). Long format, one row per
// point, figure and (collective) message size: training samples/s, AUROC, final loss;
// collective busbw and time per size. Then the run's estimator (metrics/point_estimate.h) and
// the figure it gives with its band: estimate, estimate_low, estimate_high (the median and its
// interval again, or k_best's fastest repetition and the band to the K-th fastest). The plots
// and the report read those.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "metrics/point_estimate.h"
#include "results/rewritten_file.h"

namespace harness {

class AggregatesCsv final : public RewrittenFile {
 public:
  AggregatesCsv(const std::string& directory, const Estimator& estimator)
      : RewrittenFile(directory + "/aggregates.csv"), estimator_(estimator) {}
  std::string contents(const std::vector<TrialRun>& all) const override;

 private:
  Estimator estimator_;
};

// The CSV text for a set of records (what the sink writes).
std::string aggregates_csv(const std::vector<TrialRun>& runs, const Estimator& estimator = {});

}  // namespace harness
