// What a train trial consumes: the training samples, the labelled test samples, and for
// windowed series where each test window sits, to score points.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/tabular_data.h"

namespace harness {

struct WindowLayout {
  std::size_t window = 0;
  std::vector<std::size_t> window_series;      // series index of each test window
  std::vector<std::size_t> window_start;       // first point of each test window
  std::vector<std::vector<int>> point_labels;  // per series: the test part's point labels
};

struct DataSplit {
  TabularData train;  // what the model trains on (after train_on filtering)
  TabularData test;   // labelled evaluation samples
  std::string description;
  bool sequence = false;     // samples are windows [window, features]
  std::size_t features = 0;  // per time step (== cols for tabular data)
  std::size_t window = 0;    // 0 for tabular data
  WindowLayout test_layout;  // sequence data only
};

}  // namespace harness
