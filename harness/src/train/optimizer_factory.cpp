#include "train/optimizer_factory.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

namespace harness {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimizerSettings& settings,
                                                        std::vector<at::Tensor> parameters,
                                                        double lr) {
  if (settings.kind == OptimizerKind::kSgd)
    return std::make_unique<torch::optim::SGD>(parameters,
                                               torch::optim::SGDOptions(lr)
                                                   .momentum(settings.momentum)
                                                   .weight_decay(settings.weight_decay));
  return std::make_unique<torch::optim::Adam>(
      parameters, torch::optim::AdamOptions(lr).weight_decay(settings.weight_decay));
}

void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace harness
