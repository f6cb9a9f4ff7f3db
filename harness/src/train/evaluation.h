// The evaluation phase of a train trial: rank 0's model scores the test samples by
// reconstruction error, and detection quality is set beside a no-learning baseline.
#pragma once

#include <c10/core/Device.h>

#include <optional>
#include <stdexcept>

#include "record/record_parts.h"
#include "data/data_split.h"
#include "harness/plugin/model.h"

namespace harness {

// The model scored some samples NaN or infinite: its output is not finite, so no detection
// metric means anything (the trial is recorded diverged with this message).
struct NonFiniteScores : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What evaluation finds: the record's detection parts and the validation loss.
struct DetectionResult {
  std::optional<double> validation_loss;  // unset without normal test rows
  DetectionMetrics rows;                  // test rows (windows)
  std::optional<DetectionMetrics> points; // series: test points
};

// Throws NonFiniteScores. The validation loss is the mean score of the normal test samples; for
// windowed data the points' metrics spread the window scores back onto points.
DetectionResult evaluate_detection(plugin::Model& model, const DataSplit& data, const c10::Device& device,
                        double threshold_percentile);

}  // namespace harness
