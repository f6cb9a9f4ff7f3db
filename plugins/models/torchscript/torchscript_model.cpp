// The user's own PyTorch model, exported with torch.jit.script(model).save(FILE): the harness
// trains the module's parameters from C++ like any plugin's. Its forward takes the data set's
// batches as they come ([batch, features] or [batch, window, features]) and reconstructs
// them; a score(x) or loss(x, output) method, when the module defines one, replaces the
// host's reconstruction error. Parameters that do not require gradients are state, kept in
// step with the buffers.
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/script.h>
#include <torch/torch.h>

#include <unordered_set>

#include "harness/plugin/model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "module_attributes.h"
#include "operator_guard.h"
#include "script_archive.h"
#include "script_errors.h"

namespace harness::plugins {

using plugin::Status;

// Like plugin::guarded, with LibTorch's exceptions cut to their message.
template <class Body>
Status script_guarded(const char* what, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::internal(std::string("the module's ") + what +
                            " raised: " + script_error_text(e));
  } catch (...) {
    return Status::internal(std::string("the module's ") + what + " raised an unknown exception");
  }
}

class TorchScriptModel final : public plugin::Model {
 public:
  static constexpr const char* kName = "torchscript";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "your PyTorch model as a TorchScript file (torch.jit.script(m).save); params: path, "
      "attributes, allow_operators, optimize";

  static plugin::ModelCapabilities capabilities() { return {plugin::InputKind::kAny, true}; }

  explicit TorchScriptModel(const nlohmann::json& json) {
    plugin::Params params(json, {"input_dim", "window", "path", "attributes", "allow_operators",
                                 "optimize"});
    path_ = params.string("path", "");
    optimize_ = params.boolean("optimize", false);
    const auto allowed = allowed_operators(json);
    refuse_unsafe_source(path_, allowed);  // before loading runs its __setstate__
    module_ = load_script_archive(path_);
    refuse_unsafe_operators(module_, path_, allowed);  // before any of its methods runs
    check_method_arity(module_, path_, "forward", 1);
    objective_.own_score = module_.find_method("score").has_value();
    objective_.own_loss = module_.find_method("loss").has_value();
    if (objective_.own_score) check_method_arity(module_, path_, "score", 1);
    if (objective_.own_loss) check_method_arity(module_, path_, "loss", 2);
    if (params.has("attributes")) set_module_attributes(module_, json.at("attributes"));
    module_.train(true);
  }

  Status forward(const at::Tensor& input, at::Tensor* output) noexcept override {
    return call("forward", [&] {
      const c10::IValue result = module_.forward({input});
      if (!result.isTensor())
        return Status::invalid_argument("the module's forward returned " + result.tagKind() +
                                        "; expected one tensor");
      *output = result.toTensor();
      return Status::ok();
    });
  }

  Status loss(const at::Tensor& input, const at::Tensor& output,
              at::Tensor* loss) noexcept override {
    return call("loss", [&] {
      return tensor_of(module_.get_method("loss")({input, output}), "loss", loss);
    });
  }

  Status score(const at::Tensor& input, at::Tensor* scores) noexcept override {
    return call("score", [&] {
      return tensor_of(module_.get_method("score")({input}), "score", scores);
    });
  }

  std::vector<at::Tensor> parameters() noexcept override { return tensors(/*trainable=*/true); }

  // The buffers, and the parameters frozen in the file (state, not trained).
  std::vector<at::Tensor> buffers() noexcept override {
    std::vector<at::Tensor> state = tensors(/*trainable=*/false);
    for (const auto& buffer : module_.buffers()) state.push_back(buffer);
    return state;
  }

  plugin::ModelObjective objective() noexcept override { return objective_; }

  Status set_training(bool training) noexcept override {
    return script_guarded("train()", [&] {
      module_.train(training);
      return Status::ok();
    });
  }

  Status to_device(const c10::Device& device) noexcept override {
    return script_guarded("to()", [&] {
      module_.to(device);
      return Status::ok();
    });
  }

 private:
  // One of the module's methods, guarded, with the executor's passes as `optimize` asks.
  template <class Body>
  Status call(const char* what, Body&& body) noexcept {
    return script_guarded(what, [&] {
      const torch::jit::GraphOptimizerEnabledGuard executor(optimize_);
      return body();
    });
  }

  static Status tensor_of(const c10::IValue& result, const char* method, at::Tensor* out) {
    if (!result.isTensor())
      return Status::invalid_argument(std::string("the module's ") + method + "() returned " +
                                      result.tagKind() + "; expected one tensor");
    *out = result.toTensor();
    return Status::ok();
  }

  // Each tensor once: a tied weight (self.decoder.weight = self.encoder.weight) is listed by
  // the module under both names, and must be counted, bucketed and reduced once, as DDP does.
  std::vector<at::Tensor> tensors(bool trainable) {
    std::vector<at::Tensor> out;
    std::unordered_set<const void*> seen;
    for (const auto& parameter : module_.parameters())
      if (parameter.requires_grad() == trainable && seen.insert(parameter.unsafeGetTensorImpl()).second)
        out.push_back(parameter);
    return out;
  }

  std::string path_;
  // The graph executor's optimising passes (autodiff subgraphs, fusion) for this module's
  // calls. Off by default: on the CPU they made a training step slower, not faster (the
  // Transformer 1.2-1.4x), where the plain interpreter runs each operator with LibTorch's own
  // autograd, as the built-in models do.
  bool optimize_ = false;
  torch::jit::Module module_;
  plugin::ModelObjective objective_;
};

}  // namespace harness::plugins

HARNESS_REGISTER_MODEL(harness::plugins::TorchScriptModel)
