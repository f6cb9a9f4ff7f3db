#include "metrics/point_estimate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "metrics/statistics.h"

namespace harness {
namespace {

PointEstimate median_estimate(const std::vector<double>& values) {
  const SampleSummary s = summarise(values);
  PointEstimate e{s.median, s.median_ci.low, s.median_ci.high, 0};
  // A median of zero has no relative width.
  if (s.median != 0 && values.size() >= 2)
    e.width = (s.median_ci.high - s.median_ci.low) / 2 / std::abs(s.median);
  return e;
}

PointEstimate k_best_estimate(std::vector<double> values, int k, Direction direction) {
  // Fastest first.
  if (direction == Direction::kHigherIsFaster)
    std::sort(values.begin(), values.end(), std::greater<>());
  else
    std::sort(values.begin(), values.end());
  const std::size_t kth = std::min(values.size(), static_cast<std::size_t>(std::max(k, 1))) - 1;
  PointEstimate e{values.front(), std::min(values.front(), values[kth]),
                  std::max(values.front(), values[kth]), 0};
  if (values.size() < static_cast<std::size_t>(k))
    e.width = std::numeric_limits<double>::infinity();
  else if (e.value != 0)
    e.width = std::abs(values[kth] - e.value) / std::abs(e.value);
  return e;
}

}  // namespace

std::string estimator_name(EstimatorKind kind) {
  return kind == EstimatorKind::kKBest ? "k_best" : "median";
}

PointEstimate estimate_point(const std::vector<double>& values, const Estimator& estimator,
                             Direction direction) {
  if (values.empty()) throw std::invalid_argument("estimate_point: no values");
  if (estimator.kind == EstimatorKind::kMedian || direction == Direction::kNotASpeed)
    return median_estimate(values);
  return k_best_estimate(values, estimator.k, direction);
}

}  // namespace harness
