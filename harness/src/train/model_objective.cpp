#include "train/model_objective.h"

#include <torch/torch.h>

#include <stdexcept>

#include "loader/plugin_call.h"

namespace harness {
namespace {

// "float64 (Double)": the Python name users wrote, and LibTorch's.
std::string type_text(c10::ScalarType type) {
  const caffe2::TypeMeta meta = c10::scalarTypeToTypeMeta(type);
  const std::string libtorch = c10::toString(type);
  const std::string python = type == c10::kFloat    ? "float32"
                             : type == c10::kDouble ? "float64"
                             : type == c10::kHalf   ? "float16"
                             : type == c10::kLong   ? "int64"
                             : type == c10::kInt    ? "int32"
                                                    : std::string(meta.name());
  return python + " (" + libtorch + ")";
}

at::Tensor reconstruction_of(plugin::Model& model, const at::Tensor& input) {
  at::Tensor output;
  throw_if_failed(model.forward(input, &output), "model forward");
  if (!output.defined() || !output.sizes().equals(input.sizes()))
    throw std::runtime_error(
        "the model's forward returned " +
        (output.defined() ? "shape " + shape_text(output) : std::string("no tensor")) +
        " for an input of shape " + shape_text(input) +
        "; a reconstruction has the input's shape (or define loss() and score())");
  if (output.scalar_type() != input.scalar_type())
    throw std::runtime_error(std::string("the model's forward returned ") +
                             type_text(output.scalar_type()) + " values for " +
                             type_text(input.scalar_type()) + " input; expected " +
                             type_text(input.scalar_type()) +
                             ", the input's type (the harness trains and scores in float32)");
  return output;
}

// Under autograd, a loss without a gradient would train nothing, and backward would fail with
// autograd's own words.
at::Tensor trainable(at::Tensor loss, const char* source) {
  if (at::GradMode::is_enabled() && !loss.requires_grad())
    throw std::runtime_error(
        std::string("the training loss does not depend on the model's trainable parameters: ") +
        source +
        " carries no gradient (detached, integer-typed or computed without the parameters), so "
        "there is nothing to train");
  return loss;
}

}  // namespace

std::string shape_text(const at::Tensor& tensor) {
  std::string text = "[";
  for (int64_t d = 0; d < tensor.dim(); ++d)
    text += (d ? ", " : "") + std::to_string(tensor.size(d));
  return text + "]";
}

at::Tensor training_loss(plugin::Model& model, const at::Tensor& input) {
  if (!model.objective().own_loss)
    return trainable(torch::mse_loss(reconstruction_of(model, input), input),
                     "the output of forward()");
  at::Tensor output, loss;
  throw_if_failed(model.forward(input, &output), "model forward");
  throw_if_failed(model.loss(input, output, &loss), "model loss");
  if (!loss.defined() || loss.numel() != 1 || !loss.is_floating_point())
    throw std::runtime_error(
        "the model's loss() returned " +
        (loss.defined() ? "shape " + shape_text(loss) : std::string("nothing")) +
        "; expected one floating-point value");
  return trainable(loss.reshape({}), "the value of loss()");
}

at::Tensor sample_scores(plugin::Model& model, const at::Tensor& input) {
  if (!model.objective().own_score)
    return (reconstruction_of(model, input) - input).pow(2).flatten(1).mean(1);
  at::Tensor scores;
  throw_if_failed(model.score(input, &scores), "model score");
  if (!scores.defined() || scores.dim() != 1 || scores.size(0) != input.size(0))
    throw std::runtime_error(
        "the model's score() returned " +
        (scores.defined() ? "shape " + shape_text(scores) : std::string("nothing")) +
        " for an input of shape " + shape_text(input) + "; expected [" +
        std::to_string(input.size(0)) + "], one score per sample");
  return scores;
}

ModelObjectiveRecord describe_objective(plugin::Model& model) {
  const plugin::ModelObjective objective = model.objective();
  return {objective.own_loss ? "model loss(x, output)" : "reconstruction mse",
          objective.own_score ? "model score(x)" : "reconstruction mse per sample"};
}

}  // namespace harness
