// Anomaly-detection quality from scores (higher = more anomalous) and 0/1 labels. Scores are
// totally ordered with NaN above every number and all NaNs tied, so no input hangs or is
// undefined; evaluation rejects non-finite scores before it gets here
// (first_non_finite).
#pragma once

#include <optional>
#include <vector>

namespace harness {

// Area under the ROC curve; ties count one half (Mann-Whitney). Empty when a class is missing.
std::optional<double> auroc(const std::vector<double>& scores, const std::vector<int>& labels);
// Average precision (area under the precision-recall curve, step-wise, ties grouped).
std::optional<double> auprc(const std::vector<double>& scores, const std::vector<int>& labels);

struct F1Result {
  double f1 = 0;
  double threshold = 0;  // score >= threshold is flagged
  double precision = 0;
  double recall = 0;
};
// The best F1 over all thresholds. Empty when there are no positives.
std::optional<F1Result> best_f1(const std::vector<double>& scores, const std::vector<int>& labels);
// F1 when flagging score >= threshold.
F1Result f1_at(const std::vector<double>& scores, const std::vector<int>& labels, double threshold);

// The index of the first NaN or infinite score, or scores.size() when all are finite.
std::size_t first_non_finite(const std::vector<double>& scores);

}  // namespace harness
