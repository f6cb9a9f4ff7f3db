// points.csv: one row per message size of every collective trial, the table the bandwidth
// plots are made from. Columns: the trial's identity, then collective_point_fields().
#pragma once

#include <string>
#include <utility>

#include "results/record_sink.h"

namespace harness {

class PointsCsv final : public RecordSink {
 public:
  explicit PointsCsv(std::string directory) : directory_(std::move(directory)) {}
  void record_added(const Json& record, const std::vector<Json>& all) override;

 private:
  std::string directory_;
};

}  // namespace harness
