// Summary statistics of samples (timings, scores, losses).
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace harness {

// Linear-interpolated percentile (numpy's default) of values; p in [0, 100]. Throws
// std::invalid_argument for no values.
double percentile(std::vector<double> values, double p);

double mean(const std::vector<double>& values);  // 0 for no values

// Coefficient of variation: population standard deviation / mean (0 when the mean is 0).
double coefficient_of_variation(const std::vector<double>& values);

// The mean of the last `width` values added.
class MovingMean {
 public:
  explicit MovingMean(std::size_t width) : width_(width) {}
  void add(double value);
  double value() const;  // 0 before the first add
  bool empty() const { return window_.empty(); }

 private:
  std::size_t width_;
  std::deque<double> window_;
  double sum_ = 0;
};

}  // namespace harness
