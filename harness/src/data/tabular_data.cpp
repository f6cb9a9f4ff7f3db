#include "data/tabular_data.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/input_error.h"
#include "common/random.h"

namespace harness {

void TabularData::append_row(const std::vector<float>& row, int label) {
  values.insert(values.end(), row.begin(), row.end());
  labels.push_back(label);
}

TabularData TabularData::select(const std::vector<std::size_t>& indices) const {
  TabularData out;
  out.cols = cols;
  out.sample_shape = sample_shape;
  out.values.reserve(indices.size() * cols);
  for (std::size_t i : indices) {
    out.values.insert(out.values.end(), values.begin() + i * cols, values.begin() + (i + 1) * cols);
    out.labels.push_back(labels[i]);
  }
  return out;
}

std::size_t TabularData::anomalies() const {
  return static_cast<std::size_t>(std::count(labels.begin(), labels.end(), 1));
}

TabularData TabularData::normal_rows() const {
  std::vector<std::size_t> normal;
  for (std::size_t i = 0; i < rows(); ++i)
    if (!labels[i]) normal.push_back(i);
  return select(normal);
}

std::size_t held_out_rows(std::size_t rows, double test_fraction) {
  const auto test_rows = static_cast<std::size_t>(std::llround(test_fraction * double(rows)));
  if (test_rows == 0 || test_rows == rows)
    throw SettingError("dataset.test_fraction",
                       "holding out " + std::to_string(test_fraction) + " of " +
                           std::to_string(rows) + " rows leaves " +
                           (test_rows == 0 ? "no test row" : "no training row") +
                           "; both parts need rows");
  return test_rows;
}

void split_rows(const TabularData& all, double test_fraction, std::uint64_t seed,
                TabularData* train, TabularData* test) {
  std::vector<std::size_t> order(all.rows());
  std::iota(order.begin(), order.end(), 0);
  SplitMix64 rng(seed ^ 0x5eed5011755ULL);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  const std::size_t test_rows = held_out_rows(all.rows(), test_fraction);
  *test = all.select({order.begin(), order.begin() + test_rows});
  *train = all.select({order.begin() + test_rows, order.end()});
}

}  // namespace harness
