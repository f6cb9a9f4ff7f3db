// The Horovod tutorial's dense autoencoder (20→10→3→10→20 with ReLU by default). The encoder
// widths come from "hidden" (the last one is the bottleneck); the decoder mirrors them.
#include <torch/torch.h>

#include "harness/plugin/module_model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace harness::plugins {

using plugin::Status;

class Autoencoder final : public plugin::ModuleModel {
 public:
  static constexpr const char* kName = "autoencoder";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "dense autoencoder (seed: 20-10-3-10-20, ReLU); params: hidden, activation";

  static plugin::ModelCapabilities capabilities() {
    return {plugin::InputKind::kTabular, /*cuda=*/true};
  }

  explicit Autoencoder(const nlohmann::json& json) {
    plugin::Params params(json, {"input_dim", "hidden", "activation"});
    const long long input_dim = params.integer("input_dim", 20, 1, 1 << 20);
    const auto hidden = params.integer_list("hidden", {10, 3}, 1, 1 << 20);
    activation_ =
        params.choice("activation", "relu", {"relu", "tanh", "sigmoid", "gelu", "leaky_relu"});

    // Widths through the network: input, encoder..., decoder mirror..., input.
    std::vector<long long> widths{input_dim};
    widths.insert(widths.end(), hidden.begin(), hidden.end());
    for (auto it = hidden.rbegin() + 1; it != hidden.rend(); ++it) widths.push_back(*it);
    widths.push_back(input_dim);

    const std::size_t bottleneck = hidden.size();  // index of the latent layer's output
    for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
      net_->push_back(torch::nn::Linear(widths[i], widths[i + 1]));
      // No activation on the latent code (as in the tutorial) nor on the output.
      const bool last = i + 2 == widths.size();
      if (!last && i + 1 != bottleneck) net_->push_back(make_activation());
    }
  }

  Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept override {
    return plugin::guarded([&] {
      *reconstruction = net_->forward(input);
      return Status::ok();
    });
  }

 private:
  torch::nn::AnyModule make_activation() const {
    if (activation_ == "tanh") return torch::nn::AnyModule(torch::nn::Tanh());
    if (activation_ == "sigmoid") return torch::nn::AnyModule(torch::nn::Sigmoid());
    if (activation_ == "gelu") return torch::nn::AnyModule(torch::nn::GELU());
    if (activation_ == "leaky_relu") return torch::nn::AnyModule(torch::nn::LeakyReLU());
    return torch::nn::AnyModule(torch::nn::ReLU());
  }

  std::string activation_;
  torch::nn::Sequential net_ = module_->register_module("net", torch::nn::Sequential());
};

}  // namespace harness::plugins

HARNESS_REGISTER_MODEL(harness::plugins::Autoencoder)
