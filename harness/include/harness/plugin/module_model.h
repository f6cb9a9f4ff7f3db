// A Model whose layers live in one torch::nn::Module: parameters, train/eval mode and device
// moves come from the module, so a model plugin writes only its constructor and forward().
#pragma once

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "harness/plugin/model.h"

namespace harness::plugin {

class ModuleModel : public Model {
 public:
  std::vector<at::Tensor> parameters() noexcept override { return module_->parameters(); }
  std::vector<at::Tensor> buffers() noexcept override { return module_->buffers(); }

  Status set_training(bool training) noexcept override {
    return guarded([&] {
      module_->train(training);
      return Status::ok();
    });
  }

  Status to_device(const c10::Device& device) noexcept override {
    return guarded([&] {
      module_->to(device);
      moved_to(device);
      return Status::ok();
    });
  }

 protected:
  // Called after a device move, for models that keep tensor handles of their own.
  virtual void moved_to(const c10::Device& /*device*/) {}

  std::shared_ptr<torch::nn::Module> module_ = std::make_shared<torch::nn::Module>();
};

}  // namespace harness::plugin
