// The Model interface: what a model plugin implements. A model reconstructs its input;
// the host turns reconstruction error into loss and anomaly scores, unless the model brings
// its own (objective()).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <vector>

#include "harness/plugin/model_capabilities.h"
#include "harness/plugin/status.h"

namespace harness::plugin {

// Which of the optional methods below a model instance defines.
struct ModelObjective {
  bool own_loss = false;   // loss() replaces the host's mean squared reconstruction error
  bool own_score = false;  // score() replaces the host's per-sample reconstruction error
};

class Model {
 public:
  virtual ~Model() = default;

  // output: a reconstruction of input (same shape), unless objective().own_loss says the
  // model's loss() reads it instead.
  virtual Status forward(const at::Tensor& input, at::Tensor* output) noexcept = 0;
  // The trainable parameters, in a fixed order that is the same on every rank.
  virtual std::vector<at::Tensor> parameters() noexcept = 0;
  virtual Status set_training(bool training) noexcept = 0;
  virtual Status to_device(const c10::Device& device) noexcept = 0;

  // State that is not trained but changes the output (BatchNorm's running statistics,
  // positional tables), in a fixed order; the host broadcasts rank 0's copy.
  virtual std::vector<at::Tensor> buffers() noexcept { return {}; }
  virtual ModelObjective objective() noexcept { return {}; }
  // With own_loss: the batch's scalar training loss from the input and forward's output.
  virtual Status loss(const at::Tensor& /*input*/, const at::Tensor& /*output*/,
                      at::Tensor* /*loss*/) noexcept {
    return Status::unsupported("this model defines no loss()");
  }
  // With own_score: one anomaly score per sample of input (higher: more anomalous).
  virtual Status score(const at::Tensor& /*input*/, at::Tensor* /*scores*/) noexcept {
    return Status::unsupported("this model defines no score()");
  }
};

}  // namespace harness::plugin
