// aggregates.csv: per sweep point, over its repetitions, each headline figure's n, median,
// min, max and 95% interval of the median (distribution-free; with few repetitions the
// interval is [min, max] and ci_coverage says what it covers). Long format, one row per
// point, figure and (collective) message size: training samples/s, AUROC, final loss;
// collective busbw and time per size.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/record_sink.h"

namespace harness {

class AggregatesCsv final : public RecordSink {
 public:
  explicit AggregatesCsv(std::string directory) : directory_(std::move(directory)) {}
  void record_added(const Json& record, const std::vector<Json>& all) override;

 private:
  std::string directory_;
};

// The CSV text for a set of records (what record_added writes).
std::string aggregates_csv(const std::vector<Json>& records);

}  // namespace harness
