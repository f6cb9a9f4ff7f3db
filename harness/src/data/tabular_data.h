// Labelled samples as one row-major float matrix: tabular rows, or windows of a series.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

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

// round(test_fraction * rows), the rows a split holds out; a SettingError naming
// dataset.test_fraction when that leaves either part without rows.
std::size_t held_out_rows(std::size_t rows, double test_fraction);

// Splits rows into train/test with a seeded shuffle; test gets held_out_rows(...) rows.
void split_rows(const TabularData& all, double test_fraction, std::uint64_t seed,
                TabularData* train, TabularData* test);

}  // namespace harness
