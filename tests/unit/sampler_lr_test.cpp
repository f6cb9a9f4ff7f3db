#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "train/distributed_sampler.h"
#include "train/lr_schedule.h"

namespace harness {
namespace {

TEST(DistributedSampler, ShardsAreDisjointEqualAndCoverTheData) {
  const std::size_t n = 103;
  const int world = 4;
  std::multiset<std::size_t> all;
  for (int rank = 0; rank < world; ++rank) {
    DistributedSampler sampler(n, world, rank, 7);
    sampler.set_epoch(3);
    const auto shard = sampler.indices();
    EXPECT_EQ(shard.size(), 26u);  // ceil(103 / 4)
    all.insert(shard.begin(), shard.end());
  }
  EXPECT_EQ(all.size(), 104u);  // padded by one repeated index
  std::set<std::size_t> distinct(all.begin(), all.end());
  EXPECT_EQ(distinct.size(), n);  // every row appears
}

TEST(DistributedSampler, DivisibleDataHasNoOverlap) {
  std::set<std::size_t> seen;
  for (int rank = 0; rank < 3; ++rank) {
    const auto shard = DistributedSampler(99, 3, rank, 1).indices();
    for (auto i : shard) EXPECT_TRUE(seen.insert(i).second) << "index " << i << " twice";
  }
  EXPECT_EQ(seen.size(), 99u);
}

TEST(DistributedSampler, ReshuffledEachEpochAndReproducible) {
  DistributedSampler a(1000, 2, 0, 5), b(1000, 2, 0, 5);
  a.set_epoch(0);
  const auto epoch0 = a.indices();
  a.set_epoch(1);
  const auto epoch1 = a.indices();
  EXPECT_NE(epoch0, epoch1);
  b.set_epoch(1);
  EXPECT_EQ(b.indices(), epoch1);
  DistributedSampler other_seed(1000, 2, 0, 6);
  other_seed.set_epoch(1);
  EXPECT_NE(other_seed.indices(), epoch1);
}

TEST(DistributedSampler, RejectsBadRank) {
  EXPECT_THROW(DistributedSampler(10, 2, 2, 0), std::invalid_argument);
  EXPECT_THROW(DistributedSampler(0, 1, 0, 0), std::invalid_argument);
}

TEST(LrRules, ScaleWithWorldSize) {
  EXPECT_DOUBLE_EQ(scaled_lr(0.01, LrRule::kNone, 4), 0.01);
  EXPECT_DOUBLE_EQ(scaled_lr(0.01, LrRule::kLinear, 4), 0.04);
  EXPECT_DOUBLE_EQ(scaled_lr(0.01, LrRule::kSqrt, 4), 0.02);
}

TEST(LrRules, WarmupRampsFromOneWorkerShareToScaled) {
  const LrSchedule schedule(0.1, LrRule::kLinear, 4, 10);
  EXPECT_DOUBLE_EQ(schedule.peak(), 0.4);
  EXPECT_NEAR(schedule.at(0), 0.4 * (0.25 + 0.75 * 0.1), 1e-12);
  EXPECT_NEAR(schedule.at(4), 0.4 * (0.25 + 0.75 * 0.5), 1e-12);
  EXPECT_DOUBLE_EQ(schedule.at(9), 0.4);
  EXPECT_DOUBLE_EQ(schedule.at(100), 0.4);
  for (std::uint64_t s = 1; s < 10; ++s) EXPECT_GT(schedule.at(s), schedule.at(s - 1));
  EXPECT_DOUBLE_EQ(LrSchedule(0.1, LrRule::kNone, 2, 0).at(0), 0.1);
}

}  // namespace
}  // namespace harness
