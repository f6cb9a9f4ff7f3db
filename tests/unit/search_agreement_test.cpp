// --check-records refuses a search.json whose winner its trials do not bear out, by the rule
// the scripts apply (scripts/harness_analysis/search.py, disagreement).
#include <gtest/gtest.h>

#include <vector>

#include "common/json.h"
#include "search/search_agreement.h"

namespace harness {
namespace {

Json record(int batch, double samples_per_s, const char* status = "ok") {
  return {{"status", status},
          {"part", ""},
          {"axes", {{"batch_size", batch}}},
          {"throughput", {{"samples_per_s", samples_per_s}}}};
}

Json search(double winner_value) {
  return {{"objective", "samples_per_s"},
          {"winner", {{"batch_size", 64}}},
          {"winner_figure", {{"value", winner_value}, {"low", 90}, {"high", 110}}},
          {"runner_up", {{"batch_size", 32}}},
          {"runner_up_figure", {{"value", 50}}}};
}

TEST(SearchAgreement, AWinnerItsTrialsMeasuredStands) {
  const std::vector<Json> records = {record(64, 95), record(64, 105), record(32, 50)};
  EXPECT_EQ(search_disagreement(search(100), records), "");
}

TEST(SearchAgreement, AFigureOutsideWhatItsTrialsMeasuredIsNamed) {
  const std::vector<Json> records = {record(64, 95), record(64, 105), record(32, 50)};
  EXPECT_EQ(search_disagreement(search(900), records),
            "its winner batch_size=64 has the figure 900.0, but its 2 trial(s) in trials.jsonl "
            "measured 95 to 105; search.json was changed after the run");
}

TEST(SearchAgreement, AWinnerWithoutAMeasuredTrialIsNamed) {
  const std::vector<Json> records = {record(64, 100, "failed"), record(32, 50)};
  EXPECT_EQ(search_disagreement(search(100), records),
            "its winner batch_size=64 has no measured trial in trials.jsonl");
}

}  // namespace
}  // namespace harness
