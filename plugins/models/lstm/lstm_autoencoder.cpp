// LSTM encoder-decoder that reconstructs windows [batch, window, features]: the encoder's last
// hidden state is squeezed to a latent vector, repeated over the window, and decoded by a
// second LSTM into the features (Malhotra et al. 2016, "LSTM-based encoder-decoder for
// multi-sensor anomaly detection").
#include <torch/torch.h>

#include "harness/plugin/module_model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace harness::plugins {

using plugin::Status;

class LstmAutoencoder final : public plugin::ModuleModel {
 public:
  static constexpr const char* kName = "lstm";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "LSTM encoder-decoder over windows; params: hidden_size, layers, latent_size, dropout";

  static plugin::ModelCapabilities capabilities() { return {plugin::InputKind::kSequence, true}; }

  explicit LstmAutoencoder(const nlohmann::json& json) {
    plugin::Params params(
        json, {"input_dim", "window", "hidden_size", "layers", "latent_size", "dropout"});
    const auto features = params.integer("input_dim", 1, 1, 1 << 20);
    window_ = params.integer("window", 32, 1, 1 << 20);
    const auto hidden = params.integer("hidden_size", 32, 1, 1 << 16);
    const auto layers = params.integer("layers", 1, 1, 64);
    const auto latent = params.integer("latent_size", 8, 1, 1 << 16);
    const double dropout = params.number("dropout", 0.0, 0.0, 0.99);
    // torch applies LSTM dropout between layers only.
    const double between_layers = layers > 1 ? dropout : 0.0;
    encoder_ =
        module_->register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(features, hidden)
                                                                .num_layers(layers)
                                                                .batch_first(true)
                                                                .dropout(between_layers)));
    to_latent_ = module_->register_module("to_latent", torch::nn::Linear(hidden, latent));
    from_latent_ = module_->register_module("from_latent", torch::nn::Linear(latent, hidden));
    decoder_ =
        module_->register_module("decoder", torch::nn::LSTM(torch::nn::LSTMOptions(hidden, hidden)
                                                                .num_layers(layers)
                                                                .batch_first(true)
                                                                .dropout(between_layers)));
    output_ = module_->register_module("output", torch::nn::Linear(hidden, features));
  }

  Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept override {
    return plugin::guarded([&] {
      if (input.dim() != 3 || input.size(1) != window_)
        return Status::invalid_argument("lstm expects [batch, " + std::to_string(window_) +
                                        ", features], got " + std::to_string(input.dim()) +
                                        "-d input");
      auto encoded = std::get<0>(encoder_->forward(input));  // [B, W, H]
      auto last = encoded.select(1, input.size(1) - 1);      // [B, H]
      auto latent = to_latent_->forward(last);               // [B, Z]
      auto repeated = from_latent_->forward(latent).unsqueeze(1).expand({-1, input.size(1), -1});
      auto decoded = std::get<0>(decoder_->forward(repeated.contiguous()));  // [B, W, H]
      *reconstruction = output_->forward(decoded);                           // [B, W, F]
      return Status::ok();
    });
  }

 private:
  int64_t window_;
  torch::nn::LSTM encoder_{nullptr}, decoder_{nullptr};
  torch::nn::Linear to_latent_{nullptr}, from_latent_{nullptr}, output_{nullptr};
};

}  // namespace harness::plugins

HARNESS_REGISTER_MODEL(harness::plugins::LstmAutoencoder)
