// Adaptive repetitions: which points run again, judged on hand-computed intervals.
#include <gtest/gtest.h>

#include <cmath>

#include "run/adaptive_repetitions.h"

namespace harness {
namespace {

TrialRun train_record(const std::string& point, int repetition, double rate, double wall_s = 1) {
  return read_trial_run(
      {{"point", point},
       {"repetition", repetition},
       {"status", "ok"},
       {"wall_time_s", wall_s},
       {"throughput", {{"samples_per_s", rate}}},
       {"detection", {{"auroc", 0.5 + 0.1 * repetition}}}});  // not a speed figure
}

TrialRun collective_record(const std::string& point, int repetition,
                           const std::vector<std::pair<int, double>>& busbw) {
  Json points = Json::array();
  for (const auto& [bytes, gbps] : busbw)
    points.push_back({{"bytes", bytes}, {"busbw_gbps", gbps}});
  return read_trial_run({{"point", point},
                         {"kind", "collective"},
                         {"repetition", repetition},
                         {"status", "ok"},
                         {"wall_time_s", 2.0},
                         {"points", points}});
}

const Estimator kMedian{EstimatorKind::kMedian, 3};
const Estimator kThreeBest{EstimatorKind::kKBest, 3};

Trial point_trial(const std::string& point) {
  Trial trial;
  trial.point = point;
  return trial;
}

TEST(AdaptiveRepetitions, WidestIntervalOfTheSpeedFigures) {
  // Five values: the 95% interval of the median is [min, max] = [98, 104] around 100: +-3%.
  std::vector<TrialRun> records;
  const double rates[] = {100, 104, 98, 101, 99};
  for (int r = 0; r < 5; ++r) records.push_back(train_record("a", r, rates[r]));
  EXPECT_NEAR(widest_relative_width(records, kMedian), 0.03, 1e-12);  // AUROC's spread is ignored
  // A collective point: the widest message size decides (1 KB: [1, 3] around 2 = +-50%).
  const std::vector<TrialRun> collective = {collective_record("c", 0, {{1024, 1}, {65536, 10}}),
                                            collective_record("c", 1, {{1024, 2}, {65536, 10}}),
                                            collective_record("c", 2, {{1024, 3}, {65536, 10}})};
  EXPECT_NEAR(widest_relative_width(collective, kMedian), 0.5, 1e-12);
  // One value, or none measured, says nothing about the spread.
  EXPECT_EQ(widest_relative_width({train_record("a", 0, 100)}, kMedian), 0);
  Json failed_record = train_record("a", 1, 50).json;
  failed_record["status"] = "failed";
  const TrialRun failed = read_trial_run(failed_record);
  EXPECT_EQ(widest_relative_width({train_record("a", 0, 100), failed}, kMedian), 0);
}

TEST(AdaptiveRepetitions, KBestWidthIsTheThirdFastestsDistanceFromTheFastest) {
  // Two fast repetitions and three slow ones: the median (65) follows the slow ones; the 3
  // fastest are 100, 98 and 65 (35% apart) until a third fast one comes.
  std::vector<TrialRun> records;
  const double rates[] = {100, 60, 98, 55, 65};
  for (int r = 0; r < 5; ++r) records.push_back(train_record("a", r, rates[r]));
  EXPECT_NEAR(widest_relative_width(records, kThreeBest), 0.35, 1e-12);
  records.push_back(train_record("a", 5, 99));
  EXPECT_NEAR(widest_relative_width(records, kThreeBest), 0.02, 1e-12);
  // Fewer than K values: not settled, however close.
  EXPECT_TRUE(std::isinf(
      widest_relative_width({train_record("b", 0, 100), train_record("b", 1, 100)}, kThreeBest)));
  AdaptiveRepetitions settings;
  settings.max_repetitions = 10;
  const AdaptivePlanner planner(settings, kThreeBest, 5, {point_trial("a")});
  EXPECT_EQ(planner.points_to_repeat(records, 5), std::vector<std::size_t>{0});
  EXPECT_TRUE(planner.points_to_repeat(records, 6).empty());
  EXPECT_EQ(planner.summary(records).estimator, "k_best");
}

TEST(AdaptiveRepetitions, RepeatsOnlyWidePointsUpToTheMaximum) {
  AdaptiveRepetitions settings;
  settings.max_repetitions = 5;
  settings.target_ci = 0.05;
  const AdaptivePlanner planner(settings, kMedian, 3, {point_trial("narrow"), point_trial("wide")});
  std::vector<TrialRun> records = {train_record("narrow", 0, 100), train_record("narrow", 1, 101),
                                   train_record("narrow", 2, 99),  train_record("wide", 0, 100),
                                   train_record("wide", 1, 150),   train_record("wide", 2, 120)};
  EXPECT_EQ(planner.points_to_repeat(records, 3), std::vector<std::size_t>{1});
  // With repetition 3 in (121) "wide" is still [100, 150] (n = 4: [min, max]), so it gets
  // repetition 4; repetition 5 would be past the maximum.
  records.push_back(train_record("wide", 3, 121));
  EXPECT_EQ(planner.points_to_repeat(records, 4), std::vector<std::size_t>{1});
  EXPECT_TRUE(planner.points_to_repeat(records, 5).empty());
  // A later record does not change an earlier round's decision (resume makes the same one).
  records.push_back(train_record("narrow", 4, 1000));
  EXPECT_EQ(planner.points_to_repeat(records, 3), std::vector<std::size_t>{1});
}

TEST(AdaptiveRepetitions, BudgetCountsOnlyTheExtraTrials) {
  AdaptiveRepetitions settings;
  settings.max_repetitions = 10;
  settings.budget_s = 5;
  const AdaptivePlanner planner(settings, kMedian, 2, {point_trial("p")});
  std::vector<TrialRun> records = {train_record("p", 0, 1, 100), train_record("p", 1, 2, 100)};
  EXPECT_EQ(planner.seconds_spent(records), 0);
  EXPECT_TRUE(planner.budget_left(records));
  records.push_back(train_record("p", 2, 3, 3));
  EXPECT_TRUE(planner.budget_left(records));
  records.push_back(train_record("p", 3, 3, 2.5));
  EXPECT_DOUBLE_EQ(planner.seconds_spent(records), 5.5);
  EXPECT_FALSE(planner.budget_left(records));
  const AdaptiveSummary summary = planner.summary(records);
  EXPECT_EQ(summary.extra_trials, 2u);
  EXPECT_EQ(summary.still_wide.size(), 1u);  // 1, 2, 3, 3: +-50%
}

TEST(AdaptiveRepetitions, OneTrialPerPointInFirstRunOrder) {
  std::vector<Trial> trials = {point_trial("b"), point_trial("a"), point_trial("b"),
                               point_trial("a")};
  const auto points = one_trial_per_point(trials);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].point, "b");
  EXPECT_EQ(points[1].point, "a");
}

}  // namespace
}  // namespace harness
