// The machine-state figures in meta.json: CPU shares between two readings, hand-computed.
#include <gtest/gtest.h>

#include "run/machine_state.h"

namespace harness {
namespace {

MachineState reading(unsigned long long busy, unsigned long long idle, unsigned long long iowait,
                     unsigned long long steal) {
  MachineState state;
  state.cpu_jiffies = CpuJiffies{busy, 0, 0, idle, iowait, 0, 0, steal};
  return state;
}

TEST(MachineState, SharesOfCpuTimeBetweenTwoReadings) {
  // 100 jiffies passed: 60 user, 20 idle, 10 iowait, 10 steal.
  const CpuShares shares =
      cpu_shares_between(reading(1000, 500, 40, 5), reading(1060, 520, 50, 15));
  EXPECT_DOUBLE_EQ(shares.steal.value(), 0.10);
  EXPECT_DOUBLE_EQ(shares.iowait.value(), 0.10);
  EXPECT_DOUBLE_EQ(shares.busy.value(), 0.70);  // not idle and not iowait
  EXPECT_FALSE(cpu_shares_between(MachineState{}, MachineState{}).steal.has_value());
  // No time passed: no shares, rather than a division by zero.
  EXPECT_FALSE(cpu_shares_between(reading(1, 1, 1, 1), reading(1, 1, 1, 1)).busy.has_value());
}

TEST(MachineState, ReadsThisMachine) {
  const MachineState now = machine_state_now();
  ASSERT_TRUE(now.loadavg.has_value());
  EXPECT_EQ(now.loadavg->size(), 3u);
  ASSERT_TRUE(now.runnable.has_value());
  EXPECT_GE(*now.runnable, 1);  // this process is running
  EXPECT_TRUE(now.cpu_jiffies.has_value());
  EXPECT_FALSE(now.at.empty());
}

}  // namespace
}  // namespace harness
