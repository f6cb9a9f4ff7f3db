// summary.csv: one row per trial, one column per scalar field of the records (dotted names;
// arrays are left out), rewritten whole after each trial.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/record_sink.h"

namespace harness {

class SummaryCsv final : public RecordSink {
 public:
  explicit SummaryCsv(std::string directory) : directory_(std::move(directory)) {}
  void record_added(const Json& record, const std::vector<Json>& all) override;

 private:
  std::string directory_;
};

// Scalars of a record flattened to dotted column names; arrays are left out.
void flatten_scalars(const Json& value, const std::string& prefix,
                     std::vector<std::pair<std::string, Json>>* out);

}  // namespace harness
