#include "record/collective_point.h"

namespace harness {

const std::vector<PointField>& collective_point_fields() {
  static const std::vector<PointField> fields = {
      {"bytes", "size(B)", "%.0f", 12},
      {"count", "count", "%.0f", 11},
      {"time_us", "time(us)", "%.2f", 11},
      {"min_us", "min(us)", "%.2f", 10},
      {"p50_us", "p50(us)", "%.2f", 10},
      {"p99_us", "p99(us)", "%.2f", 10},
      {"cv", "cv", "%.3f", 6},
      {"algbw_gbps", "algbw", "%.3f", 9},
      {"busbw_gbps", "busbw", "%.3f", 9},
      {"wrong", "#wrong", "%.0f", 7},
  };
  return fields;
}

Json to_json(const CollectivePoint& point) {
  return Json{{"bytes", point.bytes},
              {"count", point.count},
              {"time_us", point.time_us},
              {"min_us", point.min_us},
              {"p50_us", point.p50_us},
              {"p99_us", point.p99_us},
              {"cv", point.cv},
              {"algbw_gbps", point.algbw_gbps},
              {"busbw_gbps", point.busbw_gbps},
              {"wrong", point.wrong ? Json(*point.wrong) : Json()}};
}

}  // namespace harness
