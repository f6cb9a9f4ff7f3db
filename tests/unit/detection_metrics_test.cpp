// Values computed by hand (and cross-checked with scikit-learn's definitions).
#include <gtest/gtest.h>

#include <limits>

#include "metrics/detection_metrics.h"
#include "metrics/statistics.h"

namespace harness {
namespace {

TEST(Auroc, HandComputedWithTies) {
  // positives 0.9, 0.4; negatives 0.8, 0.4, 0.1. Pairs: (0.9>0.8) 1, (0.9>0.4) 1, (0.9>0.1) 1,
  // (0.4<0.8) 0, (0.4=0.4) 0.5, (0.4>0.1) 1 -> 4.5 / 6 = 0.75.
  EXPECT_DOUBLE_EQ(*auroc({0.9, 0.8, 0.4, 0.4, 0.1}, {1, 0, 1, 0, 0}), 0.75);
  EXPECT_DOUBLE_EQ(*auroc({1, 2, 3}, {0, 0, 1}), 1.0);
  EXPECT_DOUBLE_EQ(*auroc({3, 2, 1}, {0, 0, 1}), 0.0);
  EXPECT_FALSE(auroc({1, 2}, {0, 0}).has_value());
}

TEST(Auprc, HandComputed) {
  // Ranked: 0.9(+) 0.8(-) 0.7(+) 0.1(-): AP = 0.5*1 + 0.5*(2/3) = 0.8333...
  EXPECT_NEAR(*auprc({0.9, 0.8, 0.7, 0.1}, {1, 0, 1, 0}), 0.5 + 1.0 / 3.0, 1e-12);
  // Tied group counted at once: scores all equal -> precision 0.5 at recall 1.
  EXPECT_DOUBLE_EQ(*auprc({1, 1, 1, 1}, {1, 0, 1, 0}), 0.5);
  EXPECT_FALSE(auprc({1, 2}, {0, 0}).has_value());
}

TEST(F1, BestThresholdAndFixedThreshold) {
  // Threshold 0.7 flags 3 rows with 2 positives: P=2/3, R=1, F1=0.8; 0.9 flags one: F1=2/3.
  const auto best = best_f1({0.9, 0.8, 0.7, 0.1}, {1, 0, 1, 0});
  ASSERT_TRUE(best.has_value());
  EXPECT_NEAR(best->f1, 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(best->threshold, 0.7);
  const F1Result at = f1_at({0.9, 0.8, 0.7, 0.1}, {1, 0, 1, 0}, 0.85);
  EXPECT_NEAR(at.f1, 2.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(at.precision, 1.0);
  EXPECT_DOUBLE_EQ(at.recall, 0.5);
  EXPECT_DOUBLE_EQ(f1_at({0.1}, {1}, 0.5).f1, 0.0);
}

TEST(Percentile, LinearInterpolationLikeNumpy) {
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 50), 2.5);
  EXPECT_DOUBLE_EQ(percentile({4, 1, 3, 2}, 100), 4);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5}, 95), 4.8);
  EXPECT_THROW(percentile({}, 50), std::invalid_argument);
}

TEST(Metrics, SizeMismatchIsAnError) { EXPECT_THROW(auroc({1, 2}, {1}), std::invalid_argument); }

// NaN used to hang the tie walk (NaN == NaN is false) and make sorting undefined. Now NaN ranks
// above every number and all NaNs tie: {1, 2, NaN, NaN} with labels {0, 1, 1, 0} has ranks
// 1, 2, 3.5, 3.5, so the positives' rank sum is 5.5 and AUROC (5.5 - 3) / 4 = 0.625.
TEST(Metrics, NaNScoresHaveAnOrderAndNeverHang) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(*auroc({1, 2, nan, nan}, {0, 1, 1, 0}), 0.625);
  EXPECT_DOUBLE_EQ(*auroc({nan, nan, nan}, {0, 1, 0}), 0.5);
  EXPECT_DOUBLE_EQ(*auroc({inf, 1, nan}, {1, 0, 0}), 0.5);  // NaN above +inf
  const auto best = best_f1({nan, 0.5, 0.1}, {1, 1, 0});
  ASSERT_TRUE(best.has_value());
  EXPECT_DOUBLE_EQ(best->f1, 1.0);
  EXPECT_TRUE(auprc({nan, nan}, {1, 0}).has_value());
  EXPECT_EQ(f1_at({nan, 0.2}, {1, 0}, 0.5).recall, 1.0);  // NaN is flagged at any threshold
  EXPECT_EQ(first_non_finite({1, 2, 3}), 3u);
  EXPECT_EQ(first_non_finite({1, inf, nan}), 1u);
  EXPECT_EQ(first_non_finite({-inf}), 0u);
}

}  // namespace
}  // namespace harness
