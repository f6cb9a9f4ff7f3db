// The machine-state figures in meta.json: CPU shares between two readings, hand-computed.
#include <gtest/gtest.h>

#include "run/machine_state.h"

namespace harness {
namespace {

Json reading(unsigned long long busy, unsigned long long idle, unsigned long long iowait,
             unsigned long long steal) {
  return {{"cpu_jiffies",
           {{"user", busy},
            {"nice", 0},
            {"system", 0},
            {"idle", idle},
            {"iowait", iowait},
            {"irq", 0},
            {"softirq", 0},
            {"steal", steal}}}};
}

TEST(MachineState, SharesOfCpuTimeBetweenTwoReadings) {
  // 100 jiffies passed: 60 user, 20 idle, 10 iowait, 10 steal.
  const Json shares = cpu_shares_between(reading(1000, 500, 40, 5), reading(1060, 520, 50, 15));
  EXPECT_DOUBLE_EQ(shares["steal"].get<double>(), 0.10);
  EXPECT_DOUBLE_EQ(shares["iowait"].get<double>(), 0.10);
  EXPECT_DOUBLE_EQ(shares["busy"].get<double>(), 0.70);  // not idle and not iowait
  EXPECT_TRUE(cpu_shares_between(Json::object(), Json::object())["steal"].is_null());
}

TEST(MachineState, ReadsThisMachine) {
  const Json now = machine_state_now();
  ASSERT_TRUE(now["loadavg"].is_array()) << now.dump();
  EXPECT_EQ(now["loadavg"].size(), 3u);
  EXPECT_GE(now["runnable"].get<long long>(), 1);  // this process is running
  EXPECT_TRUE(now["cpu_jiffies"].is_object());
}

}  // namespace
}  // namespace harness
