// The console's numbers and its one line per trial: human units with three significant
// digits (never an exponent), the figure with its interval, a noisy trial's reason folded into
// its line, and the nccl-tests table only when verbose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/human_units.h"
#include "results/console_reporter.h"

namespace harness {
namespace {

TEST(HumanUnits, CountsWithMetricPrefixes) {
  EXPECT_EQ(human_count(402123), "402k");
  EXPECT_EQ(human_count(211600.3), "212k");
  EXPECT_EQ(human_count(1.2e6), "1.20M");
  EXPECT_EQ(human_count(950), "950");
  EXPECT_EQ(human_count(999.7), "1.00k");
}

TEST(HumanUnits, BandwidthSizesAndElapsedTime) {
  EXPECT_EQ(human_bandwidth(7.43), "7.43 GB/s");
  EXPECT_EQ(human_bandwidth(5.696e-06), "5.70 kB/s");
  EXPECT_EQ(human_bandwidth(0.312), "312 MB/s");
  EXPECT_EQ(human_bytes(4), "4 B");
  EXPECT_EQ(human_bytes(4096), "4 KB");
  EXPECT_EQ(human_bytes(std::uint64_t{64} << 20), "64 MB");
  EXPECT_EQ(human_bytes(2016), "1.97 KB");
  EXPECT_EQ(human_elapsed(12.34), "12.3 s");
  EXPECT_EQ(human_elapsed(200), "3m20s");
  EXPECT_EQ(human_elapsed(3900), "1h05m");
}

// What a reporter printed, through a temporary file.
std::string printed(Verbosity verbosity, const Json& record) {
  std::FILE* out = std::tmpfile();
  ConsoleReporter reporter(verbosity, 10, out);
  reporter.trial_finished(read_trial_run(record), 2);
  std::rewind(out);
  std::string text;
  char chunk[512];
  while (std::fgets(chunk, sizeof chunk, out)) text += chunk;
  std::fclose(out);
  return text;
}

Json collective_record(bool noisy) {
  Json record = {{"kind", "collective"},
          {"status", "ok"},
          {"reason", ""},
          {"noisy", noisy},
          {"wall_time_s", 2.0},
          {"axes",
           {{"world_size", 2}, {"backend", "gloo"}, {"backend_params", {{"algorithm", "ring"}}}}},
          {"settings", {{"dtype", "fp32"}, {"op", "sum"}, {"timing", "loop"}}},
          {"points",
           {{{"bytes", 67108864},
             {"busbw_gbps", 7.43},
             {"busbw_ci_low_gbps", 7.1},
             {"busbw_ci_high_gbps", 7.6},
             {"cv", 0.4}}}}};
  if (noisy) record["noisy_because"] = "timings vary beyond noise_cv_threshold at 67108864 B";
  return record;
}

TEST(ConsoleLine, OneLineWithTheFigureAndItsInterval) {
  const std::string text = printed(Verbosity::kNormal, collective_record(false));
  EXPECT_EQ(text,
            "[3/10] ok  world_size=2 backend=gloo:ring  busbw 7.43 GB/s [7.10 GB/s, 7.60 GB/s] at "
            "64 MB  2.0 s, ETA 14.0 s\n");
}

TEST(ConsoleLine, ANoisyTrialSaysWhyOnItsOwnLine) {
  const std::string text = printed(Verbosity::kNormal, collective_record(true));
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
  EXPECT_NE(text.find("noisy: timings vary beyond noise_cv_threshold at 67108864 B"), std::string::npos)
      << text;
}

TEST(ConsoleLine, VerboseAddsTheNcclTestsTable) {
  const std::string text = printed(Verbosity::kVerbose, collective_record(false));
  EXPECT_NE(text.find("algbw"), std::string::npos) << text;
  EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(ConsoleLine, TrainingShowsSamplesPerSecondWithTheirInterval) {
  const Json record = {
      {"status", "ok"},
      {"reason", ""},
      {"wall_time_s", 1.0},
      {"axes", {{"world_size", 2}, {"batch_size", 32}}},
      {"throughput", {{"samples_per_s", 402123.0}, {"samples_per_s_ci95", {398000.0, 410000.0}}}},
      {"detection", {{"auroc", 0.9512}}}};
  EXPECT_EQ(printed(Verbosity::kNormal, record),
            "[3/10] ok  world_size=2 batch_size=32  402k [398k, 410k] samples/s  auroc 0.951  "
            "1.0 s, ETA 7.0 s\n");
}

}  // namespace
}  // namespace harness
