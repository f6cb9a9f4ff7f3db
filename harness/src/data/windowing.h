// Cutting series into sliding windows for sequence models, and spreading window scores back
// onto the points they cover.
#pragma once

#include <cstddef>
#include <vector>

#include "data/data_split.h"
#include "data/series.h"
#include "spec/dataset_settings.h"

namespace harness {

struct WindowOptions {
  std::size_t window = 32;
  std::size_t stride = 1;       // between training windows
  std::size_t test_stride = 1;  // between test windows (1: every point gets a score)
  WindowLabel label_rule = WindowLabel::kAny;
  double test_fraction = 0.3;  // the last part of each series is the test part
};

// Cuts each series at (1 - test_fraction) of its length (test after train, no look-ahead),
// standardises every feature with statistics of the training parts only (of their normal
// points when normal_only), and cuts both parts into windows. Windows are rows of
// window * features values with sample_shape {window, features}; normal_only keeps only
// training windows labelled normal. The test windows' layout maps window scores back to points.
DataSplit make_windowed_split(const SeriesSet& set, const WindowOptions& options, bool normal_only);

// Where a series of `length` points is cut into its training and test parts; throws
// SettingError (dataset.window) when a window does not fit in both.
std::size_t train_test_cut(std::size_t length, const WindowOptions& options,
                           const std::string& series_name);

// Point scores: each test point's score is the mean score of the test windows covering it.
// Points no window covers are left out. Fills labels with the matching point labels.
std::vector<double> point_scores(const WindowLayout& layout,
                                 const std::vector<double>& window_scores,
                                 std::vector<int>* labels);

}  // namespace harness
