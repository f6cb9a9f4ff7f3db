// The Model interface: what a model plugin implements. A model reconstructs its input;
// the host turns reconstruction error into loss and anomaly scores.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <vector>

#include "harness/plugin/model_capabilities.h"
#include "harness/plugin/status.h"

namespace harness::plugin {

class Model {
 public:
  virtual ~Model() = default;

  // reconstruction gets a tensor of the same shape as input.
  virtual Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept = 0;
  // The trainable parameters, in a fixed order that is the same on every rank.
  virtual std::vector<at::Tensor> parameters() noexcept = 0;
  virtual Status set_training(bool training) noexcept = 0;
  virtual Status to_device(const c10::Device& device) noexcept = 0;
};

}  // namespace harness::plugin
