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

namespace {

// P(B = k) for B ~ Binomial(n, 1/2), in log space (n may be large).
double binomial_half_pmf(std::size_t n, std::size_t k) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  return std::exp(std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) +
                  nd * std::log(0.5));
}

}  // namespace

Interval median_confidence_interval(std::vector<double> values, double level) {
  if (values.empty()) throw std::invalid_argument("confidence interval of no values");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  // [x_(j), x_(n+1-j)] (1-based) misses the median with probability 2 P(B <= j - 1); widen
  // j while the next narrower interval still covers `level`.
  std::size_t j = 1;
  double below = binomial_half_pmf(n, 0);  // P(B <= j - 1)
  while (j + 1 <= (n + 1) / 2) {
    const double narrower_below = below + binomial_half_pmf(n, j);
    if (1 - 2 * narrower_below < level) break;
    below = narrower_below;
    ++j;
  }
  return {values[j - 1], values[n - j], std::max(1 - 2 * below, 0.0)};
}

SampleSummary summarise(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("summary of no values");
  SampleSummary s;
  s.n = values.size();
  s.median = percentile(values, 50);
  s.mean = mean(values);
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  s.p90 = percentile(values, 90);
  s.p99 = percentile(values, 99);
  s.cv = coefficient_of_variation(values);
  s.median_ci = median_confidence_interval(values);
  return s;
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
