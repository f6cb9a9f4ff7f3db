// Transformer autoencoder over windows [batch, window, features]: a linear embedding plus
// positional encoding feeds a Transformer encoder; its output is mean-pooled over time and
// squeezed through a latent bottleneck (without one, self-attention learns the identity and
// reconstruction error stops meaning anything); the latent vector, broadcast over time with
// the positional encoding again, is decoded by a second Transformer encoder stack.
#include <torch/torch.h>

#include <cmath>

#include "harness/plugin/module_model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace harness::plugins {

using plugin::Status;

class TransformerAutoencoder final : public plugin::ModuleModel {
 public:
  static constexpr const char* kName = "transformer";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "Transformer encoder autoencoder over windows; params: d_model, heads, layers, "
      "feedforward, dropout, latent_size, positional";

  static plugin::ModelCapabilities capabilities() { return {plugin::InputKind::kSequence, true}; }

  explicit TransformerAutoencoder(const nlohmann::json& json) {
    plugin::Params params(json, {"input_dim", "window", "d_model", "heads", "layers", "feedforward",
                                 "dropout", "latent_size", "positional"});
    const auto features = params.integer("input_dim", 1, 1, 1 << 20);
    window_ = static_cast<int64_t>(params.integer("window", 32, 1, 1 << 20));
    const int64_t d_model = params.integer("d_model", 32, 2, 1 << 14);
    const auto heads = params.integer("heads", 4, 1, 256);
    const auto layers = params.integer("layers", 2, 1, 64);
    const auto feedforward = params.integer("feedforward", 64, 1, 1 << 16);
    const double dropout = params.number("dropout", 0.0, 0.0, 0.99);
    const auto latent = params.integer("latent_size", 8, 1, 1 << 16);
    positional_kind_ = params.choice("positional", "sinusoidal", {"sinusoidal", "learned"});
    if (d_model % heads != 0)
      throw std::invalid_argument("/heads: expected a divisor of d_model (" +
                                  std::to_string(d_model) + "), got " + std::to_string(heads));

    auto layer_options = torch::nn::TransformerEncoderLayerOptions(d_model, heads)
                             .dim_feedforward(feedforward)
                             .dropout(dropout);
    embed_ = module_->register_module("embed", torch::nn::Linear(features, d_model));
    encoder_ = module_->register_module(
        "encoder",
        torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(layer_options, layers)));
    to_latent_ = module_->register_module("to_latent", torch::nn::Linear(d_model, latent));
    from_latent_ = module_->register_module("from_latent", torch::nn::Linear(latent, d_model));
    decoder_ = module_->register_module(
        "decoder",
        torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(layer_options, layers)));
    output_ = module_->register_module("output", torch::nn::Linear(d_model, features));
    if (positional_kind_ == "learned") {
      positional_ =
          module_->register_parameter("positional", torch::randn({window_, d_model}) * 0.02);
    } else {
      // Vaswani et al.: sin on even dimensions, cos on odd ones; a buffer, not trained.
      auto position = torch::arange(window_, torch::kFloat32).unsqueeze(1);
      auto rate = torch::exp(torch::arange(0, static_cast<double>(d_model), 2, torch::kFloat32) *
                             (-std::log(10000.0) / d_model));
      auto table = torch::zeros({window_, d_model});
      table.index_put_(
          {torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
          torch::sin(position * rate));
      table.index_put_(
          {torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
          torch::cos(position * rate).narrow(1, 0, d_model / 2));
      positional_ = module_->register_buffer("positional", table);
    }
  }

  Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept override {
    return plugin::guarded([&] {
      if (input.dim() != 3 || input.size(1) != window_)
        return Status::invalid_argument("transformer expects [batch, " + std::to_string(window_) +
                                        ", features], got " + std::to_string(input.dim()) +
                                        "-d input");
      // LibTorch 1.13's Transformer modules take [time, batch, d_model].
      auto x = (embed_->forward(input) + positional_).transpose(0, 1);
      auto encoded = encoder_->forward(x);                 // [W, B, D]
      auto latent = to_latent_->forward(encoded.mean(0));  // [B, Z]
      auto expanded =
          from_latent_->forward(latent).unsqueeze(0) + positional_.unsqueeze(1);  // [W, B, D]
      auto decoded = decoder_->forward(expanded);
      *reconstruction = output_->forward(decoded.transpose(0, 1));  // [B, W, F]
      return Status::ok();
    });
  }

 private:
  // Buffers and parameters moved with the module must be fetched again.
  void moved_to(const c10::Device&) override {
    positional_ = positional_kind_ == "learned" ? module_->named_parameters()["positional"]
                                                : module_->named_buffers()["positional"];
  }

  int64_t window_;
  std::string positional_kind_;
  torch::nn::Linear embed_{nullptr}, to_latent_{nullptr}, from_latent_{nullptr}, output_{nullptr};
  torch::nn::TransformerEncoder encoder_{nullptr}, decoder_{nullptr};
  torch::Tensor positional_;
};

}  // namespace harness::plugins

HARNESS_REGISTER_MODEL(harness::plugins::TransformerAutoencoder)
