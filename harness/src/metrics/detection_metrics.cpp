#include "metrics/detection_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace harness {
namespace {

// A total order on scores: NaN above every number (the most anomalous), so sorting is defined
// and every NaN is one tie group. (With plain < sorting NaN is undefined behaviour and tie
// walks comparing with == never advance past a NaN.) Callers reject NaN where it is an error.
bool score_below(double a, double b) { return std::isnan(a) ? false : std::isnan(b) || a < b; }
bool same_score(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Indices sorted by ascending or descending score.
std::vector<std::size_t> by_score(const std::vector<double>& scores, bool descending) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return descending ? score_below(scores[b], scores[a]) : score_below(scores[a], scores[b]);
  });
  return order;
}

// The end of the tie group starting at position i of order.
std::size_t tie_group_end(const std::vector<double>& scores, const std::vector<std::size_t>& order,
                          std::size_t i) {
  std::size_t j = i;
  while (j < order.size() && same_score(scores[order[j]], scores[order[i]])) ++j;
  return j;
}

void check_sizes(const std::vector<double>& scores, const std::vector<int>& labels) {
  if (scores.size() != labels.size())
    throw std::invalid_argument("metrics: " + std::to_string(scores.size()) + " scores but " +
                                std::to_string(labels.size()) + " labels");
}

F1Result f1_from_counts(double tp, double fp, double fn, double threshold) {
  F1Result r;
  r.threshold = threshold;
  r.precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  r.recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  r.f1 = r.precision + r.recall > 0 ? 2 * r.precision * r.recall / (r.precision + r.recall) : 0;
  return r;
}

}  // namespace

std::optional<double> auroc(const std::vector<double>& scores, const std::vector<int>& labels) {
  check_sizes(scores, labels);
  const auto order = by_score(scores, /*descending=*/false);
  // Sum of average ranks of the positives (ranks 1-based, ties share their mean rank).
  double positive_rank_sum = 0;
  std::size_t positives = 0;
  for (std::size_t i = 0; i < order.size();) {
    const std::size_t j = tie_group_end(scores, order, i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k)
      if (labels[order[k]]) {
        positive_rank_sum += mean_rank;
        ++positives;
      }
    i = j;
  }
  const std::size_t negatives = scores.size() - positives;
  if (positives == 0 || negatives == 0) return std::nullopt;
  const double p = static_cast<double>(positives), n = static_cast<double>(negatives);
  return (positive_rank_sum - p * (p + 1) / 2.0) / (p * n);
}

std::optional<double> auprc(const std::vector<double>& scores, const std::vector<int>& labels) {
  check_sizes(scores, labels);
  const double positives = static_cast<double>(std::count(labels.begin(), labels.end(), 1));
  if (positives == 0) return std::nullopt;
  const auto order = by_score(scores, /*descending=*/true);
  double tp = 0, fp = 0, previous_recall = 0, area = 0;
  for (std::size_t i = 0; i < order.size();) {
    const std::size_t j = tie_group_end(scores, order, i);
    for (std::size_t k = i; k < j; ++k) (labels[order[k]] ? tp : fp) += 1;
    const double recall = tp / positives;
    area += (recall - previous_recall) * (tp / (tp + fp));
    previous_recall = recall;
    i = j;
  }
  return area;
}

std::optional<F1Result> best_f1(const std::vector<double>& scores, const std::vector<int>& labels) {
  check_sizes(scores, labels);
  const double positives = static_cast<double>(std::count(labels.begin(), labels.end(), 1));
  if (positives == 0) return std::nullopt;
  const auto order = by_score(scores, /*descending=*/true);
  F1Result best;
  double tp = 0, fp = 0;
  for (std::size_t i = 0; i < order.size();) {
    const std::size_t j = tie_group_end(scores, order, i);
    for (std::size_t k = i; k < j; ++k) (labels[order[k]] ? tp : fp) += 1;
    const F1Result r = f1_from_counts(tp, fp, positives - tp, scores[order[i]]);
    if (r.f1 > best.f1) best = r;
    i = j;
  }
  return best;
}

F1Result f1_at(const std::vector<double>& scores, const std::vector<int>& labels,
               double threshold) {
  check_sizes(scores, labels);
  double tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const bool flagged = !score_below(scores[i], threshold);
    if (flagged && labels[i]) ++tp;
    if (flagged && !labels[i]) ++fp;
    if (!flagged && labels[i]) ++fn;
  }
  return f1_from_counts(tp, fp, fn, threshold);
}

std::size_t first_non_finite(const std::vector<double>& scores) {
  return static_cast<std::size_t>(
      std::find_if(scores.begin(), scores.end(), [](double v) { return !std::isfinite(v); }) -
      scores.begin());
}

}  // namespace harness
