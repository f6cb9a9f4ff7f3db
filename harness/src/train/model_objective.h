// What a step trains on and what evaluation scores with: the model's own loss() and score()
// where it defines them, else the mean squared reconstruction error. The one place that turns
// a model's output into a loss, so training, evaluation and validation agree.
#pragma once

#include <ATen/core/Tensor.h>

#include <string>

#include "record/record_parts.h"
#include "harness/plugin/model.h"

namespace harness {

// The batch's scalar loss, with its autograd graph. Throws std::runtime_error when the model
// fails or its output does not fit (a reconstruction of another shape, a non-scalar loss).
at::Tensor training_loss(plugin::Model& model, const at::Tensor& input);

// One score per sample of input, [batch] (call under no-grad, in eval mode).
at::Tensor sample_scores(plugin::Model& model, const at::Tensor& input);

// "[32, 20]".
std::string shape_text(const at::Tensor& tensor);

// The record's account of which loss and score the trial used.
ModelObjectiveRecord describe_objective(plugin::Model& model);

}  // namespace harness
