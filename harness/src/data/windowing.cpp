#include "data/windowing.h"

#include <algorithm>
#include <cmath>

#include "common/input_error.h"
#include "data/standardizer.h"

namespace harness {
namespace {

int window_label(const std::vector<int>& labels, std::size_t start, std::size_t length,
                 WindowLabel rule) {
  if (rule == WindowLabel::kLast) return labels[start + length - 1];
  std::size_t anomalous = 0;
  for (std::size_t i = start; i < start + length; ++i) anomalous += labels[i] ? 1 : 0;
  if (rule == WindowLabel::kMajority) return 2 * anomalous > length ? 1 : 0;
  return anomalous > 0 ? 1 : 0;
}

// Appends the windows of values[begin, end) (points of one series) to out.
void cut_windows(const Series& s, std::size_t begin, std::size_t end, std::size_t stride,
                 const WindowOptions& options, TabularData* out, std::vector<std::size_t>* starts) {
  const std::size_t w = options.window;
  std::vector<float> row(w * s.features);
  for (std::size_t start = begin; start + w <= end; start += stride) {
    std::copy(s.values.begin() + start * s.features, s.values.begin() + (start + w) * s.features,
              row.begin());
    out->append_row(row, window_label(s.labels, start, w, options.label_rule));
    if (starts) starts->push_back(start - begin);
  }
}

}  // namespace

std::size_t train_test_cut(std::size_t length, const WindowOptions& options,
                           const std::string& series_name) {
  const auto cut =
      static_cast<std::size_t>(std::llround((1.0 - options.test_fraction) * double(length)));
  if (cut >= options.window && length - cut >= options.window) return cut;
  const std::string parts = "a train part of " + std::to_string(cut) +
                            " points and a test part of " + std::to_string(length - cut);
  // Long enough for two windows: the split is what leaves one part short.
  if (length >= 2 * options.window)
    throw SettingError("dataset.test_fraction",
                       std::to_string(options.test_fraction) + " cuts " + series_name + " (" +
                           std::to_string(length) + " points) into " + parts +
                           ", and each needs a window of " + std::to_string(options.window));
  throw SettingError("dataset.window", series_name + " has " + std::to_string(length) +
                                           " points, too few for a window of " +
                                           std::to_string(options.window) +
                                           " in both its train and test parts");
}

namespace {

// The training part of each series ends here (its test part starts here).
std::vector<std::size_t> train_test_cuts(const SeriesSet& set, const WindowOptions& options) {
  std::vector<std::size_t> cut(set.series.size());
  for (std::size_t k = 0; k < set.series.size(); ++k)
    cut[k] = train_test_cut(set.series[k].length(), options,
                            set.description + " series " + std::to_string(k));
  return cut;
}

// Fitted on the training parts only (their normal points only when normal_only).
Standardizer fit_on_training_parts(const SeriesSet& set, const std::vector<std::size_t>& cut,
                                   bool normal_only) {
  const std::size_t features = set.series[0].features;
  std::vector<float> points;
  for (std::size_t k = 0; k < set.series.size(); ++k) {
    const Series& s = set.series[k];
    for (std::size_t t = 0; t < cut[k]; ++t)
      if (!normal_only || !s.labels[t])
        points.insert(points.end(), s.values.begin() + t * features,
                      s.values.begin() + (t + 1) * features);
  }
  return Standardizer::fit(points, features);
}

DataSplit empty_windowed_split(const SeriesSet& set, const WindowOptions& options) {
  const std::size_t features = set.series[0].features, w = options.window;
  DataSplit split;
  split.sequence = true;
  split.features = features;
  split.window = w;
  split.description = set.description + ", windows of " + std::to_string(w);
  split.train.cols = split.test.cols = w * features;
  split.train.sample_shape =
      split.test.sample_shape = {static_cast<std::int64_t>(w), static_cast<std::int64_t>(features)};
  split.test_layout.window = w;
  return split;
}

}  // namespace

DataSplit make_windowed_split(const SeriesSet& set, const WindowOptions& options,
                              bool normal_only) {
  if (set.series.empty()) throw InputError(set.description + ": no series");
  const auto cut = train_test_cuts(set, options);
  const Standardizer standardizer = fit_on_training_parts(set, cut, normal_only);
  DataSplit split = empty_windowed_split(set, options);
  for (std::size_t k = 0; k < set.series.size(); ++k) {
    Series s = set.series[k];
    standardizer.apply(&s.values);
    cut_windows(s, 0, cut[k], options.stride, options, &split.train, nullptr);
    const std::size_t before = split.test.rows();
    cut_windows(s, cut[k], s.length(), options.test_stride, options, &split.test,
                &split.test_layout.window_start);
    split.test_layout.window_series.insert(split.test_layout.window_series.end(),
                                           split.test.rows() - before, k);
    split.test_layout.point_labels.emplace_back(s.labels.begin() + cut[k], s.labels.end());
  }
  if (normal_only) split.train = split.train.normal_rows();
  if (split.train.rows() == 0)
    throw SettingError("dataset", split.description + " has no training windows" +
                                      (normal_only ? " labelled normal" : ""));
  return split;
}

std::vector<double> point_scores(const WindowLayout& layout,
                                 const std::vector<double>& window_scores,
                                 std::vector<int>* labels) {
  std::vector<std::vector<double>> sum(layout.point_labels.size()),
      count(layout.point_labels.size());
  for (std::size_t k = 0; k < layout.point_labels.size(); ++k) {
    sum[k].assign(layout.point_labels[k].size(), 0.0);
    count[k].assign(layout.point_labels[k].size(), 0.0);
  }
  for (std::size_t i = 0; i < window_scores.size(); ++i) {
    const std::size_t k = layout.window_series[i], start = layout.window_start[i];
    for (std::size_t t = start; t < start + layout.window; ++t) {
      sum[k][t] += window_scores[i];
      count[k][t] += 1;
    }
  }
  std::vector<double> scores;
  labels->clear();
  for (std::size_t k = 0; k < sum.size(); ++k)
    for (std::size_t t = 0; t < sum[k].size(); ++t)
      if (count[k][t] > 0) {
        scores.push_back(sum[k][t] / count[k][t]);
        labels->push_back(layout.point_labels[k][t]);
      }
  return scores;
}

}  // namespace harness
