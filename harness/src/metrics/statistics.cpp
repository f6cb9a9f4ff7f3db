#include "metrics/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace harness {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) throw std::invalid_argument("percentile of no values");
  std::sort(values.begin(), values.end());
  const double position = p / 100.0 * static_cast<double>(values.size() - 1);
  const std::size_t low = static_cast<std::size_t>(position);
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (position - static_cast<double>(low)) * (values[high] - values[low]);
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double coefficient_of_variation(const std::vector<double>& values) {
  const double m = mean(values);
  if (m == 0) return 0;
  double variance = 0;
  for (double v : values) variance += (v - m) * (v - m) / static_cast<double>(values.size());
  return std::sqrt(variance) / m;
}

void MovingMean::add(double value) {
  window_.push_back(value);
  sum_ += value;
  if (window_.size() > width_) {
    sum_ -= window_.front();
    window_.pop_front();
  }
}

double MovingMean::value() const {
  return window_.empty() ? 0.0 : sum_ / static_cast<double>(window_.size());
}

}  // namespace harness
