#include "record/collective_point.h"

namespace harness {

const std::vector<PointField>& collective_point_fields() {
  // clang-format off
  static const std::vector<PointField> fields = {
      {"bytes", "size(B)", "%.0f", 12},       {"count", "count", "%.0f", 11},
      {"iters", "samples", "%.0f", 8},        {"p50_us", "time(us)", "%.2f", 11},
      {"mean_us", "mean(us)", "%.2f", 10},    {"p99_us", "p99(us)", "%.2f", 10},
      {"cv", "cv", "%.3f", 6},                {"algbw_gbps", "algbw", "%.3f", 9},
      {"busbw_gbps", "busbw", "%.3f", 9},     {"noisy", "noisy", "", 6},
      {"wrong", "#wrong", "%.0f", 7},
  };
  // clang-format on
  return fields;
}

}  // namespace harness
