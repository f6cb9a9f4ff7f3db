// Statistics against hand-computed values: the distribution-free interval of the median
// (binomial order statistics), summaries, and the moving mean.
#include <gtest/gtest.h>

#include <stdexcept>

#include "metrics/statistics.h"

namespace harness {
namespace {

TEST(MedianInterval, OrderStatisticsOfTenValues) {
  // n = 10: [x(2), x(9)] misses the median with 2 P(B <= 1) = 2 * 11 / 1024; the narrower
  // [x(3), x(8)] would miss with 2 * 56 / 1024 = 10.9% > 5%.
  const Interval ci = median_confidence_interval({7, 3, 10, 1, 5, 9, 2, 8, 6, 4});
  EXPECT_EQ(ci.low, 2);
  EXPECT_EQ(ci.high, 9);
  EXPECT_DOUBLE_EQ(ci.coverage, 1 - 22.0 / 1024);
}

TEST(MedianInterval, TooFewValuesGiveMinMaxWithTheirCoverage) {
  const Interval ci = median_confidence_interval({5, 1, 3});
  EXPECT_EQ(ci.low, 1);
  EXPECT_EQ(ci.high, 5);
  EXPECT_DOUBLE_EQ(ci.coverage, 0.75);  // 1 - 2 * (1/2)^3
  const Interval one = median_confidence_interval({4});
  EXPECT_EQ(one.low, 4);
  EXPECT_EQ(one.high, 4);
  EXPECT_THROW(median_confidence_interval({}), std::invalid_argument);
}

TEST(MedianInterval, LargeSamplesNarrowAroundTheMedian) {
  std::vector<double> values;
  for (int i = 1; i <= 10001; ++i) values.push_back(i);
  const Interval ci = median_confidence_interval(values);
  // Normal approximation: 5001 -+ 1.96 * sqrt(10001) / 2 = 5001 -+ 98.
  EXPECT_NEAR(ci.low, 5001 - 98, 2);
  EXPECT_NEAR(ci.high, 5001 + 98, 2);
  EXPECT_GE(ci.coverage, 0.95);
  EXPECT_LT(ci.coverage, 0.96);
}

TEST(Summary, HandComputedSample) {
  const SampleSummary s = summarise({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.cv, 2.0 / 5);  // population sd 2
  EXPECT_DOUBLE_EQ(s.p90, 7.6);     // numpy: 7 + 0.3 * (9 - 7)
  EXPECT_EQ(s.median_ci.low, 2);    // n = 8 < 9: only [x(1), x(8)] covers 95%
  EXPECT_EQ(s.median_ci.high, 9);
}

TEST(MovingMean, MeanOfTheLastValues) {
  MovingMean m(3);
  EXPECT_EQ(m.value(), 0);
  for (double v : {1.0, 2.0, 3.0, 10.0}) m.add(v);
  EXPECT_DOUBLE_EQ(m.value(), 5);  // (2 + 3 + 10) / 3
}

}  // namespace
}  // namespace harness
