// One message size of a collective-benchmark trial: the record's "points" entries
// (record/record_declaration.h names them), the rows of points.csv and the console table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>


namespace harness {

struct CollectivePoint {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::uint64_t iters = 0;  // timed samples
  std::uint64_t calls = 0;  // timed calls (samples x calls per sample)
  // Seconds per call of the slowest rank, summarised over the samples. p50_us, the median, is
  // the figure the bandwidths come from; mean_us is nccl-tests' figure.
  double mean_us = 0;
  double min_us = 0;
  double p50_us = 0;
  double p99_us = 0;
  double ci_low_us = 0;  // 95% distribution-free interval of the median
  double ci_high_us = 0;
  double cv = 0;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  double busbw_ci_low_gbps = 0;  // busbw at ci_high_us and ci_low_us
  double busbw_ci_high_gbps = 0;
  // The slowest rank's speed canary around the kept samples over its fastest reading
  // (trial/quiet_gate.h); unset where the gate is off.
  std::optional<double> slowdown;
  bool noisy = false;  // cv above the trial's noise_cv_threshold, or measured in a slow spell
  std::optional<long long>
      wrong;  // elements that differ from the expected result; unset: unchecked
};

// A column of the console's table of points: a field by its key in the record, and how the
// table prints it.
struct PointField {
  const char* key;
  const char* header;
  const char* format;  // printf format of a number; other values print as text
  int width;
};

const std::vector<PointField>& collective_point_fields();

}  // namespace harness
