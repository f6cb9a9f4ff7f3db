#include "train/evaluation.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "data/windowing.h"
#include "loader/plugin_call.h"
#include "metrics/detection_metrics.h"
#include "metrics/statistics.h"
#include "train/data_tensor.h"
#include "train/model_objective.h"

namespace harness {
namespace {

constexpr int64_t kScoringBatch = 4096;

// Per-sample anomaly scores (the model's own, or its reconstruction error), in batches,
// without gradients.
std::vector<double> anomaly_scores(plugin::Model& model, const TabularData& data,
                                   const c10::Device& device) {
  torch::NoGradGuard no_grad;
  throw_if_failed(model.set_training(false), "model eval mode");
  auto all = as_tensor(data, device);
  std::vector<double> scores;
  scores.reserve(data.rows());
  for (int64_t start = 0; start < all.size(0); start += kScoringBatch) {
    auto x = all.narrow(0, start, std::min(kScoringBatch, all.size(0) - start));
    auto errors = sample_scores(model, x).to(torch::kCPU, torch::kFloat64).contiguous();
    scores.insert(scores.end(), errors.data_ptr<double>(),
                  errors.data_ptr<double>() + errors.numel());
  }
  throw_if_failed(model.set_training(true), "model train mode");
  return scores;
}

// The baseline a model must beat: the mean squared z-score of the sample (the data are
// standardised with training statistics), no learning at all.
std::vector<double> zscore_scores(const TabularData& data) {
  std::vector<double> scores(data.rows(), 0.0);
  for (std::size_t r = 0; r < data.rows(); ++r) {
    for (std::size_t c = 0; c < data.cols; ++c) {
      const double v = data.values[r * data.cols + c];
      scores[r] += v * v;
    }
    scores[r] /= static_cast<double>(data.cols);
  }
  return scores;
}

// Rejects NaN and infinite scores, naming how many and the first.
void require_finite(const std::vector<double>& scores, const char* which) {
  const std::size_t first = first_non_finite(scores);
  if (first == scores.size()) return;
  const auto bad =
      std::count_if(scores.begin(), scores.end(), [](double v) { return !std::isfinite(v); });
  throw NonFiniteScores(std::to_string(bad) + " of " + std::to_string(scores.size()) + " " + which +
                        " anomaly scores are not finite (first: sample " + std::to_string(first) +
                        " = " + std::to_string(scores[first]) +
                        "); the model's output is NaN or infinite");
}

DetectionMetrics detection_metrics(const std::vector<double>& test_scores, const std::vector<int>& labels,
                       const std::vector<double>& train_scores, double threshold_percentile,
                       const std::vector<double>& baseline_scores) {
  const auto best = best_f1(test_scores, labels);
  const double threshold = percentile(train_scores, threshold_percentile);
  const F1Result at = f1_at(test_scores, labels, threshold);
  DetectionMetrics metrics;
  metrics.auroc = auroc(test_scores, labels);
  metrics.auprc = auprc(test_scores, labels);
  if (best) {
    metrics.best_f1 = best->f1;
    metrics.best_f1_threshold = best->threshold;
  }
  metrics.threshold = threshold;
  metrics.f1_at_threshold = at.f1;
  metrics.precision_at_threshold = at.precision;
  metrics.recall_at_threshold = at.recall;
  metrics.zscore_auroc = auroc(baseline_scores, labels);
  return metrics;
}

std::optional<double> validation_loss(const std::vector<double>& test_scores,
                                      const std::vector<int>& labels) {
  std::vector<double> normal;
  for (std::size_t i = 0; i < test_scores.size(); ++i)
    if (!labels[i]) normal.push_back(test_scores[i]);
  if (normal.empty()) return std::nullopt;
  return mean(normal);
}

}  // namespace

DetectionResult evaluate_detection(plugin::Model& model, const DataSplit& data, const c10::Device& device,
                        double threshold_percentile) {
  const auto test_scores = anomaly_scores(model, data.test, device);
  require_finite(test_scores, "test");
  const auto train_scores = anomaly_scores(model, data.train, device);
  require_finite(train_scores, "training");
  const auto baseline = zscore_scores(data.test);
  DetectionResult result;
  result.validation_loss = validation_loss(test_scores, data.test.labels);
  result.rows = detection_metrics(test_scores, data.test.labels, train_scores,
                                  threshold_percentile, baseline);
  if (!data.sequence) return result;
  std::vector<int> point_labels;
  const auto points = point_scores(data.test_layout, test_scores, &point_labels);
  const auto baseline_points = point_scores(data.test_layout, baseline, &point_labels);
  result.points =
      detection_metrics(points, point_labels, train_scores, threshold_percentile, baseline_points);
  return result;
}

}  // namespace harness
