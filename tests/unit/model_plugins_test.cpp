// Every model plugin: output shape equals input shape, the loss falls on a small synthetic set
// within a fixed number of steps, the same seed gives the same loss, and the parameter count
// matches the configuration.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "loader/plugin_registry.h"
#include "test_support.h"
#include "train/model_factory.h"

namespace harness {
namespace {

struct ModelCase {
  std::string name;
  Json params;  // including the host-owned input_dim / window
  std::vector<int64_t> sample_shape;
  std::size_t expected_parameters;
};

// LSTM layer: 4 gates x (W_ih [H x in] + W_hh [H x H] + two biases [H]).
std::size_t lstm_layer(std::size_t in, std::size_t h) { return 4 * (h * in + h * h + 2 * h); }
// Transformer encoder layer: attention in/out projections, two feed-forward linears, two norms.
std::size_t encoder_layer(std::size_t d, std::size_t ff) {
  return (3 * d * d + 3 * d) + (d * d + d) + (ff * d + ff) + (d * ff + d) + 4 * d;
}

std::vector<ModelCase> cases() {
  return {
      {"autoencoder",
       {{"input_dim", 20}},
       {20},
       20 * 10 + 10 + 10 * 3 + 3 + 3 * 10 + 10 + 10 * 20 + 20},
      {"autoencoder",
       {{"input_dim", 6}, {"hidden", {8, 4, 2}}, {"activation", "tanh"}},
       {6},
       (6 * 8 + 8) + (8 * 4 + 4) + (4 * 2 + 2) + (2 * 4 + 4) + (4 * 8 + 8) + (8 * 6 + 6)},
      {"lstm",
       {{"input_dim", 3}, {"window", 10}, {"hidden_size", 16}, {"latent_size", 4}, {"layers", 2}},
       {10, 3},
       lstm_layer(3, 16) + lstm_layer(16, 16) + (16 * 4 + 4) + (4 * 16 + 16) +
           2 * lstm_layer(16, 16) + (16 * 3 + 3)},
      {"transformer",
       {{"input_dim", 3},
        {"window", 10},
        {"d_model", 16},
        {"heads", 2},
        {"layers", 1},
        {"feedforward", 32},
        {"latent_size", 4}},
       {10, 3},
       (3 * 16 + 16) + encoder_layer(16, 32) + (16 * 4 + 4) + (4 * 16 + 16) +
           encoder_layer(16, 32) + (16 * 3 + 3)},
      {"transformer",
       {{"input_dim", 2},
        {"window", 8},
        {"d_model", 8},
        {"heads", 2},
        {"layers", 2},
        {"feedforward", 16},
        {"latent_size", 3},
        {"positional", "learned"}},
       {8, 2},
       (2 * 8 + 8) + 2 * encoder_layer(8, 16) + (8 * 3 + 3) + (3 * 8 + 8) +
           2 * encoder_layer(8, 16) + (8 * 2 + 2) + 8 * 8},
  };
}

class ModelPlugins : public ::testing::TestWithParam<ModelCase> {
 protected:
  std::shared_ptr<plugin::Model> make(std::uint64_t seed) {
    torch::manual_seed(seed);
    const auto* handle = registry_.find(plugin::PluginKind::kModel, GetParam().name);
    EXPECT_NE(handle, nullptr);
    return create_model(*handle, GetParam().params);
  }
  // Structured data the model can learn: smooth signals plus a little noise.
  torch::Tensor data(int64_t batch) {
    std::vector<int64_t> shape{batch};
    shape.insert(shape.end(), GetParam().sample_shape.begin(), GetParam().sample_shape.end());
    torch::manual_seed(99);
    auto base = torch::randn({batch, 1});
    // A one-dimensional family: the same wave at a random phase per sample.
    auto x = torch::sin(base * 3 +
                        torch::arange(torch::ones(shape).numel() / batch).reshape({1, -1}) * 0.3);
    return x.reshape(shape) + 0.01 * torch::randn(shape);
  }
  std::vector<double> train(plugin::Model& model, int steps) {
    torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(0.01));
    const auto x = data(64);
    std::vector<double> losses;
    for (int i = 0; i < steps; ++i) {
      at::Tensor out;
      EXPECT_TRUE(model.forward(x, &out).is_ok());
      auto loss = torch::mse_loss(out, x);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      losses.push_back(loss.item<double>());
    }
    return losses;
  }
  PluginRegistry registry_ = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
};

TEST_P(ModelPlugins, OutputShapeEqualsInputShape) {
  auto model = make(1);
  const auto x = data(5);
  at::Tensor out;
  const auto status = model->forward(x, &out);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_EQ(out.sizes(), x.sizes());
}

TEST_P(ModelPlugins, ParameterCountMatchesConfiguration) {
  EXPECT_EQ(parameter_count(*make(1)), GetParam().expected_parameters);
}

TEST_P(ModelPlugins, LossFallsWithinFixedSteps) {
  const auto losses = train(*make(1), 100);
  EXPECT_LT(losses.back(), 0.7 * losses.front())
      << "first " << losses.front() << " last " << losses.back();
}

TEST_P(ModelPlugins, SameSeedSameLossOtherSeedDifferent) {
  const auto a = train(*make(7), 5), b = train(*make(7), 5), c = train(*make(8), 5);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST_P(ModelPlugins, WrongInputShapeIsAStatusNotACrash) {
  auto model = make(1);
  at::Tensor out;
  EXPECT_FALSE(model->forward(torch::zeros({2, 3, 4, 5}), &out).is_ok());
}

INSTANTIATE_TEST_SUITE_P(Every, ModelPlugins, ::testing::ValuesIn(cases()), [](const auto& test) {
  return test.param.name + std::to_string(test.index);
});

TEST(ModelParams, BadParametersNameThePointer) {
  const auto registry = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  const auto* transformer = registry.find(plugin::PluginKind::kModel, "transformer");
  ASSERT_NE(transformer, nullptr);
  try {
    create_model(*transformer, {{"input_dim", 2}, {"window", 8}, {"d_model", 10}, {"heads", 3}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/heads: expected a divisor of d_model (10), got 3"),
              std::string::npos);
  }
  const auto* lstm = registry.find(plugin::PluginKind::kModel, "lstm");
  try {
    create_model(*lstm, {{"input_dim", 2}, {"window", 8}, {"dropout", 1.5}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/dropout: expected a number in"), std::string::npos);
  }
}

}  // namespace
}  // namespace harness
