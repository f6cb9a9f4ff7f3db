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

namespace {

std::size_t bytes_of(const at::Tensor& tensor) { return tensor.defined() ? tensor.nbytes() : 0; }

std::size_t state_bytes(const torch::optim::OptimizerParamState& state) {
  if (const auto* adam = dynamic_cast<const torch::optim::AdamParamState*>(&state))
    return bytes_of(adam->exp_avg()) + bytes_of(adam->exp_avg_sq()) +
           bytes_of(adam->max_exp_avg_sq());
  if (const auto* sgd = dynamic_cast<const torch::optim::SGDParamState*>(&state))
    return bytes_of(sgd->momentum_buffer());
  return 0;
}

}  // namespace

std::size_t optimizer_state_bytes(const torch::optim::Optimizer& optimizer) {
  std::size_t total = 0;
  for (const auto& entry : optimizer.state()) total += state_bytes(*entry.second);
  return total;
}

void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace harness
