// Multivariate time series with labelled anomalous points, and their cutting into sliding
// windows for sequence models.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "json.h"
#include "tabular_data.h"

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

struct WindowOptions {
  std::size_t window = 32;
  std::size_t stride = 1;       // between training windows
  std::size_t test_stride = 1;  // between test windows (1: every point gets a score)
  std::string label_rule = "any";  // window label: "any", "majority" or "last" point
  double test_fraction = 0.3;      // the last part of each series is the test part
};

// Cuts each series at (1 - test_fraction) of its length (test after train, no look-ahead),
// standardises every feature with statistics of the training parts only (of their normal
// points when train_on is "normal"), and cuts both parts into windows. Windows are rows of
// window * features values with sample_shape {window, features}; train_on "normal" keeps only
// windows labelled normal. The test windows' layout maps window scores back to points.
DataSplit make_windowed_split(const SeriesSet& set, const WindowOptions& options,
                              const std::string& train_on);

// Point scores: each test point's score is the mean score of the test windows covering it.
// Points no window covers are left out. Fills labels with the matching point labels.
std::vector<double> point_scores(const WindowLayout& layout, const std::vector<double>& window_scores,
                                 std::vector<int>* labels);

// Data sources (one file each).
SeriesSet make_synthetic_series(const Json& dataset);
// LWSNDR single-hop CSV (reading,mote_id,indoor,humidity,temperature,label): one series per
// mote with humidity and temperature. Errors name file:line.
SeriesSet load_lwsndr(const std::string& path);

}  // namespace harness
