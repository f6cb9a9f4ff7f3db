// A model that trains normally (one linear layer) but scores "nan" or "inf" at evaluation
// (eval mode), as a model whose weights blew up only at the end would: the trial must be
// recorded with a status and reason, never hang in the metrics or pass as ok.
#include <torch/torch.h>

#include <limits>

#include "harness/plugin/module_model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::Status;

class NonFiniteModel final : public harness::plugin::ModuleModel {
 public:
  static constexpr const char* kName = "nonfinite";
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription = "test plugin: non-finite output at evaluation";

  static harness::plugin::ModelCapabilities capabilities() {
    return {harness::plugin::InputKind::kTabular, /*cuda=*/false};
  }

  explicit NonFiniteModel(const nlohmann::json& json) {
    harness::plugin::Params params(json, {"input_dim", "output"});
    const long long input_dim = params.integer("input_dim", 20, 1, 1 << 20);
    const std::string output = params.choice("output", "nan", {"nan", "inf"});
    value_ = output == "nan" ? std::numeric_limits<double>::quiet_NaN()
                             : std::numeric_limits<double>::infinity();
    layer_ = module_->register_module("layer", torch::nn::Linear(input_dim, input_dim));
  }

  Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept override {
    return harness::plugin::guarded([&] {
      *reconstruction =
          module_->is_training() ? layer_->forward(input) : torch::full_like(input, value_);
      return Status::ok();
    });
  }

 private:
  torch::nn::Linear layer_{nullptr};
  double value_ = 0;
};

}  // namespace

HARNESS_REGISTER_MODEL(NonFiniteModel)
