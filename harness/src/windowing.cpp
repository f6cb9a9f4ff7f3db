#include <algorithm>
#include <cmath>

#include "input_error.h"
#include "series_data.h"

namespace harness {
namespace {

int window_label(const std::vector<int>& labels, std::size_t start, std::size_t length,
                 const std::string& rule) {
  if (rule == "last") return labels[start + length - 1];
  std::size_t anomalous = 0;
  for (std::size_t i = start; i < start + length; ++i) anomalous += labels[i] ? 1 : 0;
  if (rule == "majority") return 2 * anomalous > length ? 1 : 0;
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

DataSplit make_windowed_split(const SeriesSet& set, const WindowOptions& options,
                              const std::string& train_on) {
  if (set.series.empty()) throw InputError(set.description + ": no series");
  const std::size_t features = set.series[0].features;
  const std::size_t w = options.window;

  // Statistics from the training parts only (normal points only when training on normals).
  std::vector<double> sum(features, 0.0), square(features, 0.0);
  std::size_t n = 0;
  std::vector<std::size_t> cut(set.series.size());
  for (std::size_t k = 0; k < set.series.size(); ++k) {
    const Series& s = set.series[k];
    cut[k] = static_cast<std::size_t>(std::llround((1.0 - options.test_fraction) * s.length()));
    if (cut[k] < w || s.length() - cut[k] < w)
      throw InputError("/settings/dataset/window: " + set.description + " series " + std::to_string(k) +
                       " has " + std::to_string(s.length()) + " points, too few for a window of " +
                       std::to_string(w) + " in both its train and test parts");
    for (std::size_t t = 0; t < cut[k]; ++t) {
      if (train_on == "normal" && s.labels[t]) continue;
      for (std::size_t f = 0; f < features; ++f) {
        const double v = s.values[t * features + f];
        sum[f] += v;
        square[f] += v * v;
      }
      ++n;
    }
  }
  std::vector<double> mean(features), scale(features);
  for (std::size_t f = 0; f < features; ++f) {
    mean[f] = n ? sum[f] / n : 0.0;
    const double variance = n ? square[f] / n - mean[f] * mean[f] : 0.0;
    scale[f] = variance > 1e-12 ? 1.0 / std::sqrt(variance) : 1.0;
  }

  DataSplit split;
  split.sequence = true;
  split.features = features;
  split.window = w;
  split.description = set.description + ", windows of " + std::to_string(w);
  split.train.cols = split.test.cols = w * features;
  split.train.sample_shape = split.test.sample_shape = {static_cast<std::int64_t>(w),
                                                        static_cast<std::int64_t>(features)};
  split.test_layout.window = w;
  for (std::size_t k = 0; k < set.series.size(); ++k) {
    Series s = set.series[k];
    for (std::size_t t = 0; t < s.length(); ++t)
      for (std::size_t f = 0; f < features; ++f) {
        float& v = s.values[t * features + f];
        v = static_cast<float>((v - mean[f]) * scale[f]);
      }
    cut_windows(s, 0, cut[k], options.stride, options, &split.train, nullptr);
    const std::size_t before = split.test.rows();
    cut_windows(s, cut[k], s.length(), options.test_stride, options, &split.test,
                &split.test_layout.window_start);
    split.test_layout.window_series.insert(split.test_layout.window_series.end(),
                                           split.test.rows() - before, k);
    split.test_layout.point_labels.emplace_back(s.labels.begin() + cut[k], s.labels.end());
  }
  if (train_on == "normal") split.train = split.train.normal_rows();
  if (split.train.rows() == 0)
    throw InputError("/settings/dataset: " + split.description + " has no training windows" +
                     (train_on == "normal" ? " labelled normal" : ""));
  return split;
}

std::vector<double> point_scores(const WindowLayout& layout, const std::vector<double>& window_scores,
                                 std::vector<int>* labels) {
  std::vector<std::vector<double>> sum(layout.point_labels.size()), count(layout.point_labels.size());
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
