// One message size of a collective-benchmark trial: the record's "points" entries, the
// rows of points.csv and the console table all come from this one field list.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/json.h"

namespace harness {

struct CollectivePoint {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  double time_us = 0;  // mean over iterations of the slowest rank's time (nccl-tests' time)
  double min_us = 0;
  double p50_us = 0;
  double p99_us = 0;
  double cv = 0;  // standard deviation / mean of the iteration times
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::optional<long long>
      wrong;  // elements that differ from the expected result; unset: unchecked
};

// A field of a point: its key in the record (and points.csv column), and how the console
// table prints it.
struct PointField {
  const char* key;
  const char* header;
  const char* format;  // printf format of the value; unchecked "wrong" prints "n/a"
  int width;
};

// Every field, in record order.
const std::vector<PointField>& collective_point_fields();

Json to_json(const CollectivePoint& point);

}  // namespace harness
