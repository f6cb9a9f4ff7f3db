// Summary statistics of samples (timings, scores, losses), with the uncertainty of the median.
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

// A confidence interval and the probability it actually covers the true value.
struct Interval {
  double low = 0;
  double high = 0;
  double coverage = 0;
};

// The distribution-free confidence interval of the median from order statistics: the
// narrowest [x_(j), x_(n+1-j)] whose binomial coverage is at least `level`. With too few
// values for that level (n < 6 at 95%) it is [min, max] and `coverage` says how much less it
// covers. Throws std::invalid_argument for no values.
Interval median_confidence_interval(std::vector<double> values, double level = 0.95);

// Everything a benchmark reports about one sample.
struct SampleSummary {
  std::size_t n = 0;
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double p90 = 0;
  double p99 = 0;
  double cv = 0;
  Interval median_ci;  // 95%
};

// Throws std::invalid_argument for no values.
SampleSummary summarise(const std::vector<double>& values);

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
