// Labelled tabular data and the train/test split the trainer consumes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "json.h"

namespace harness {

struct TabularData {
  std::size_t cols = 0;
  std::vector<float> values;  // row-major, rows() * cols
  std::vector<int> labels;    // 1 = anomaly

  std::size_t rows() const { return labels.size(); }
  void append_row(const std::vector<float>& row, int label);
  // The rows at `indices`, in that order.
  TabularData select(const std::vector<std::size_t>& indices) const;
  std::size_t anomalies() const;
};

struct DataSplit {
  TabularData train;  // what the model trains on (after train_on filtering)
  TabularData test;   // labelled evaluation rows
  std::string description;
};

// Loads the data set described by the resolved `dataset` settings object, filters the
// training rows by train_on ("normal" or "all"), and standardises both splits with mean and
// standard deviation fitted on the training rows only. Throws InputError on bad files.
DataSplit load_dataset(const Json& dataset, const std::string& train_on);

// Splits rows into train/test with a seeded shuffle; test gets round(fraction * rows) rows.
void split_rows(const TabularData& all, double test_fraction, std::uint64_t seed,
                TabularData* train, TabularData* test);

// Loaders (one file each). Errors name file:line.
TabularData load_csv(const std::string& path, const std::string& label_column);
TabularData load_fann(const std::string& path);
DataSplit make_synthetic_tabular(const Json& dataset);

}  // namespace harness
