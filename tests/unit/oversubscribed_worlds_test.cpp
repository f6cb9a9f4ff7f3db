// The experiment's rule for points whose ranks would share CPUs: which trials each rule
// keeps, what the dry run says, what meta.json records, and that adaptive repetitions leave
// the points measured once alone.
#include <gtest/gtest.h>

#include "run/adaptive_repetitions.h"
#include "run/oversubscribed_worlds.h"

namespace harness {
namespace {

// Points "w1" (world 1), "w2" and "w4", three repetitions each, interleaved.
std::vector<Trial> sweep() {
  std::vector<Trial> trials;
  for (int repetition = 0; repetition < 3; ++repetition)
    for (int world : {1, 2, 4}) {
      Trial trial;
      trial.index = trials.size();
      trial.world_size = world;
      trial.repetition = repetition;
      trial.point = "w" + std::to_string(world);
      trial.key = trial.point + "r" + std::to_string(repetition);
      trials.push_back(trial);
    }
  return trials;
}

const OversubscribedWorlds kFourCrowded{{4}, "4 ranks would share 2 CPU(s) on a host"};

std::vector<std::string> keys(const std::vector<Trial>& trials) {
  std::vector<std::string> result;
  for (const auto& trial : trials) result.push_back(trial.key);
  return result;
}

TEST(OversubscribedWorlds, MeasureKeepsEveryTrial) {
  const auto kept = apply_oversubscribed_rule(sweep(), OversubscribedPoints::kMeasure, kFourCrowded);
  EXPECT_EQ(keys(kept), keys(sweep()));
  for (const auto& trial : kept) EXPECT_FALSE(trial.measured_once);
}

TEST(OversubscribedWorlds, OnceKeepsTheFirstRepetitionOfCrowdedPointsMarked) {
  const auto kept = apply_oversubscribed_rule(sweep(), OversubscribedPoints::kOnce, kFourCrowded);
  EXPECT_EQ(keys(kept), (std::vector<std::string>{"w1r0", "w2r0", "w4r0", "w1r1", "w2r1", "w1r2",
                                                  "w2r2"}));
  for (std::size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(kept[i].index, i) << "renumbered in run order";
    EXPECT_EQ(kept[i].measured_once, kept[i].world_size == 4) << kept[i].key;
  }
  // Adaptive repetitions never add to a point measured once.
  std::vector<std::string> points;
  for (const auto& trial : one_trial_per_point(kept)) points.push_back(trial.point);
  EXPECT_EQ(points, (std::vector<std::string>{"w1", "w2"}));
}

TEST(OversubscribedWorlds, LeaveOutDropsCrowdedPoints) {
  const auto kept =
      apply_oversubscribed_rule(sweep(), OversubscribedPoints::kLeaveOut, kFourCrowded);
  for (const auto& trial : kept) EXPECT_NE(trial.world_size, 4) << trial.key;
  EXPECT_EQ(kept.size(), 6u);
}

TEST(OversubscribedWorlds, NothingCrowdedChangesNothingAndSaysNothing) {
  const OversubscribedWorlds none;
  EXPECT_EQ(keys(apply_oversubscribed_rule(sweep(), OversubscribedPoints::kLeaveOut, none)),
            keys(sweep()));
  EXPECT_EQ(oversubscribed_note(OversubscribedPoints::kOnce, none), "");
  EXPECT_FALSE(oversubscribed_mark(OversubscribedPoints::kOnce, none).has_value());
}

TEST(OversubscribedWorlds, TheNoteAndMetaNameTheWorldsTheReasonAndTheRule) {
  EXPECT_EQ(oversubscribed_note(OversubscribedPoints::kOnce, kFourCrowded),
            "world size 4: oversubscribed (4 ranks would share 2 CPU(s) on a host): one "
            "repetition each, to show that they work, not ranked (oversubscribed: once)");
  const auto mark = oversubscribed_mark(OversubscribedPoints::kLeaveOut, kFourCrowded);
  ASSERT_TRUE(mark.has_value());
  EXPECT_EQ(mark->rule, "leave_out");
  EXPECT_EQ(mark->world_sizes, std::vector<int>{4});
  EXPECT_EQ(mark->reason, "4 ranks would share 2 CPU(s) on a host");
}

}  // namespace
}  // namespace harness
