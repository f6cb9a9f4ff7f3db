#include "record/collective_point.h"

namespace harness {

const std::vector<PointField>& collective_point_fields() {
  // clang-format off
  static const std::vector<PointField> fields = {
      {"bytes", "size(B)", "%.0f", 12},       {"count", "count", "%.0f", 11},
      {"timing", "timing", "", 0},            {"iters", "samples", "%.0f", 8},
      {"calls", "calls", "%.0f", 0},          {"time_us", "time(us)", "%.2f", 11},
      {"mean_us", "mean(us)", "%.2f", 10},    {"min_us", "min(us)", "%.2f", 0},
      {"p50_us", "p50(us)", "%.2f", 0},       {"p99_us", "p99(us)", "%.2f", 10},
      {"ci_low_us", "ci_low", "%.2f", 0},     {"ci_high_us", "ci_high", "%.2f", 0},
      {"cv", "cv", "%.3f", 6},                {"algbw_gbps", "algbw", "%.3f", 9},
      {"busbw_gbps", "busbw", "%.3f", 9},     {"busbw_ci_low_gbps", "busbw_lo", "%.3f", 0},
      {"busbw_ci_high_gbps", "busbw_hi", "%.3f", 0},
      {"slowdown", "slowdown", "%.2f", 0},    {"noisy", "noisy", "", 6},              {"wrong", "#wrong", "%.0f", 7},
  };
  // clang-format on
  return fields;
}

Json to_json(const CollectivePoint& point) {
  return Json{{"bytes", point.bytes},
              {"count", point.count},
              {"timing", point.timing},
              {"iters", point.iters},
              {"calls", point.calls},
              {"time_us", point.time_us},
              {"mean_us", point.mean_us},
              {"min_us", point.min_us},
              {"p50_us", point.p50_us},
              {"p99_us", point.p99_us},
              {"ci_low_us", point.ci_low_us},
              {"ci_high_us", point.ci_high_us},
              {"cv", point.cv},
              {"algbw_gbps", point.algbw_gbps},
              {"busbw_gbps", point.busbw_gbps},
              {"busbw_ci_low_gbps", point.busbw_ci_low_gbps},
              {"busbw_ci_high_gbps", point.busbw_ci_high_gbps},
              {"slowdown", point.slowdown ? Json(*point.slowdown) : Json()},
              {"noisy", point.noisy},
              {"wrong", point.wrong ? Json(*point.wrong) : Json()}};
}

}  // namespace harness
