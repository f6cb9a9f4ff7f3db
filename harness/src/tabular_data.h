// Labelled tabular data and the train/test split the trainer consumes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "json.h"

namespace harness {

struct TabularData {
  std::size_t cols = 0;       // values per sample
  std::vector<float> values;  // row-major, rows() * cols
  std::vector<int> labels;    // 1 = anomaly
  // The shape of one sample: {cols} for tabular rows, {window, features} for windows.
  std::vector<std::int64_t> sample_shape;

  std::size_t rows() const { return labels.size(); }
  void append_row(const std::vector<float>& row, int label);
  // The rows at `indices`, in that order.
  TabularData select(const std::vector<std::size_t>& indices) const;
  std::size_t anomalies() const;
  // The rows labelled normal (what train_on "normal" trains on).
  TabularData normal_rows() const;
};

// Where each test window sits in the test part of its series, to score points.
struct WindowLayout {
  std::size_t window = 0;
  std::vector<std::size_t> window_series;     // series index of each test window
  std::vector<std::size_t> window_start;      // first point of each test window
  std::vector<std::vector<int>> point_labels;  // per series: the test part's point labels
};

struct DataSplit {
  TabularData train;  // what the model trains on (after train_on filtering)
  TabularData test;   // labelled evaluation samples
  std::string description;
  bool sequence = false;        // samples are windows [window, features]
  std::size_t features = 0;     // per time step (== cols for tabular data)
  std::size_t window = 0;       // 0 for tabular data
  WindowLayout test_layout;     // sequence data only
};

// Loads the data set described by the resolved `dataset` settings object. Tabular kinds:
// filters the training rows by train_on ("normal" or "all") and standardises both splits with
// statistics of the training rows only. Series kinds: see make_windowed_split. Throws
// InputError on bad files.
DataSplit load_dataset(const Json& dataset, const std::string& train_on);

// Splits rows into train/test with a seeded shuffle; test gets round(fraction * rows) rows.
void split_rows(const TabularData& all, double test_fraction, std::uint64_t seed,
                TabularData* train, TabularData* test);

// Loaders (one file each). Errors name file:line.
TabularData load_csv(const std::string& path, const std::string& label_column);
TabularData load_fann(const std::string& path);
DataSplit make_synthetic_tabular(const Json& dataset);

}  // namespace harness
