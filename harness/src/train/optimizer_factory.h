// The optimizer a train trial steps with, from its typed settings.
#pragma once

#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "spec/train_settings.h"

namespace harness {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSettings& settings,
                                                        std::vector<at::Tensor> parameters,
                                                        double lr);

// Sets every parameter group's learning rate (the schedule changes it per step).
void set_lr(torch::optim::Optimizer& optimizer, double lr);

// The bytes of the optimizer's state tensors (Adam's moments, SGD's momentum buffers), which
// it creates at its first step.
std::size_t optimizer_state_bytes(const torch::optim::Optimizer& optimizer);

}  // namespace harness
