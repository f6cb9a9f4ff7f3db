// Multivariate time series with labelled anomalous points.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace harness {

struct Series {
  std::size_t features = 0;
  std::vector<float> values;  // time-major: length() * features
  std::vector<int> labels;    // per point, 1 = anomalous

  std::size_t length() const { return labels.size(); }
};

struct SeriesSet {
  std::vector<Series> series;  // e.g. one per sensor; windows never cross two series
  std::string description;
};

}  // namespace harness
