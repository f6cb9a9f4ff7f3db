// busbw = algbw * bus factor, nccl-tests' factors (doc/PERFORMANCE.md); a group of one moves no
// bytes between ranks, so its factor is 0 for every collective (its busbw is recorded as 0).
#include <gtest/gtest.h>

#include "collective/collective_ops.h"

namespace harness {
namespace {

using plugin::Collective;

constexpr Collective kAll[] = {Collective::kAllreduce, Collective::kReduceScatter,
                               Collective::kAllgather, Collective::kBroadcast,
                               Collective::kAlltoall};

TEST(BusFactor, WorldOneHasNoBusTraffic) {
  for (Collective collective : kAll)
    EXPECT_EQ(collective_op(collective).bus_factor(1), 0.0) << plugin::collective_name(collective);
}

TEST(BusFactor, NcclTestsFactorsFromTwoRanks) {
  for (int n : {2, 3, 4, 8}) {
    EXPECT_DOUBLE_EQ(collective_op(Collective::kAllreduce).bus_factor(n), 2.0 * (n - 1) / n);
    for (Collective split : {Collective::kReduceScatter, Collective::kAllgather,
                             Collective::kAlltoall})
      EXPECT_DOUBLE_EQ(collective_op(split).bus_factor(n), double(n - 1) / n);
    EXPECT_DOUBLE_EQ(collective_op(Collective::kBroadcast).bus_factor(n), 1.0);
  }
}

}  // namespace
}  // namespace harness
