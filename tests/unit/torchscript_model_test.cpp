// The torchscript model plugin: loading errors that name the file and what is wrong, the
// validation forward on the data set's shape, the module's own score() and loss(), buffers
// and frozen parameters, attributes, and the model file's content in the trial key.
#include <gtest/gtest.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/torch.h>

#include <filesystem>

#include "common/input_error.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "run/trial_validation.h"
#include "spec/trial_expansion.h"
#include "test_support.h"
#include "train/model_factory.h"
#include "train/model_objective.h"

namespace harness {
namespace {

using testing::parse_experiment;

const std::string kModules = HARNESS_TEST_MODULE_DIR;

class TorchScriptModel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry(PluginRegistry::discover({HARNESS_PLUGIN_DIR}));
  }
  void SetUp() override {
    if (!std::filesystem::exists(kModules + "/dense.pt"))
      GTEST_SKIP() << "no exported test modules (python3-torch missing at build time)";
  }

  static std::string module(const std::string& name) { return kModules + "/" + name + ".pt"; }

  // The validation error of a train trial of `model_params` on `dataset` ("" when valid).
  static std::string error_of(const Json& model_params,
                              const Json& dataset = {{"kind", "synthetic"}, {"rows", 200}}) {
    const Json experiment = {
        {"name", "x"},
        {"settings",
         {{"model", "torchscript"}, {"model_params", model_params}, {"dataset", dataset}}}};
    try {
      const Experiment e = parse_experiment(experiment.dump(), "exp.json", {});
      DataCache data;
      validate_trials(e, expand_trials(e), *registry_, data, 1);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  static std::shared_ptr<plugin::Model> load(const std::string& name,
                                             Json params = Json::object()) {
    params["path"] = module(name);
    params["input_dim"] = 20;
    return create_model(*registry_->find(plugin::PluginKind::kModel, "torchscript"), params);
  }

  static PluginRegistry* registry_;
};
PluginRegistry* TorchScriptModel::registry_ = nullptr;

TEST_F(TorchScriptModel, AModuleThatReconstructsTheDataIsValid) {
  EXPECT_EQ(error_of({{"path", module("dense")}}), "");
}

TEST_F(TorchScriptModel, FileProblemsNameTheFile) {
  const std::string missing = kModules + "/missing.pt";
  EXPECT_CONTAINS(error_of({{"path", missing}}),
                  "/settings/model_params/path: " + missing + ": No such file or directory");
  EXPECT_CONTAINS(error_of({{"path", kModules}}), kModules + ": not a regular file");
  EXPECT_CONTAINS(error_of({{"path", module("empty")}}), "empty (0 bytes)");
  EXPECT_CONTAINS(error_of({{"path", module("not_an_archive")}}),
                  "not a TorchScript archive (torch.jit.save writes a zip file");
  const std::string other_zip = error_of({{"path", module("other_zip")}});
  EXPECT_CONTAINS(other_zip, "LibTorch cannot load it as TorchScript: ");
  EXPECT_EQ(other_zip.find("Exception raised from"), std::string::npos) << other_zip;
  EXPECT_CONTAINS(error_of(Json::object()), "expected the path of a TorchScript file");
}

TEST_F(TorchScriptModel, ForwardMustTakeOneBatchAndReturnItsShape) {
  EXPECT_CONTAINS(error_of({{"path", module("two_arguments")}}),
                  "the module's forward() takes 2 argument(s) besides self; the harness passes 1");
  EXPECT_CONTAINS(error_of({{"path", module("tuple_output")}}),
                  "on a batch of the data set's shape [4, 20]: model forward: the module's "
                  "forward returned Tuple; expected one tensor");
  EXPECT_CONTAINS(error_of({{"path", module("wrong_shape")}}),
                  "on a batch of the data set's shape [4, 20]: the model's forward returned "
                  "shape [4, 3] for an input of shape [4, 20]");
  // A module of 20 features on windows of 5: the message gives the data's shape. (On windows
  // of 20 features the same module is valid: Linear acts on the last dimension.)
  const Json series = {{"kind", "synthetic_series"}, {"length", 400}, {"dim", 5}, {"window", 8}};
  EXPECT_CONTAINS(error_of({{"path", module("dense")}}, series),
                  "on a batch of the data set's shape [4, 8, 5]: model forward: the module's "
                  "forward raised: ");
}

TEST_F(TorchScriptModel, ParametersMustBeTrainableFp32) {
  EXPECT_CONTAINS(error_of({{"path", module("no_parameters")}}),
                  "the model has no trainable parameter");
  EXPECT_CONTAINS(error_of({{"path", module("float64")}}),
                  "is Double; the harness trains fp32 parameters");
}

TEST_F(TorchScriptModel, OwnScoreAndLossReplaceTheReconstructionError) {
  auto dense = load("dense");
  EXPECT_FALSE(dense->objective().own_score);
  auto scored = load("scored");
  ASSERT_TRUE(scored->objective().own_score);
  EXPECT_FALSE(scored->objective().own_loss);
  const auto x = torch::randn({5, 20});
  torch::NoGradGuard no_grad;
  at::Tensor out;
  ASSERT_TRUE(scored->forward(x, &out).is_ok());
  EXPECT_TRUE(sample_scores(*scored, x).equal(std::get<0>((out - x).abs().max(1))));

  auto own_loss = load("own_loss");
  ASSERT_TRUE(own_loss->objective().own_loss);
  ASSERT_TRUE(own_loss->forward(x, &out).is_ok());
  EXPECT_TRUE(training_loss(*own_loss, x).equal((out - x).abs().mean()));
  EXPECT_EQ(describe_objective(*own_loss).loss, "model loss(x, output)");
  EXPECT_EQ(describe_objective(*dense).score, "reconstruction mse per sample");
}

// The graph executor's optimising passes are off unless asked for: without them the module's
// graph runs no autodiff subgraph (LibTorch's autograd differentiates each operator, as for the
// built-in models); with them it does; the two give the same gradients.
TEST_F(TorchScriptModel, TheGraphExecutorsOptimisationsAreOptIn) {
  const auto x = torch::randn({8, 20});
  const auto gradients_and_graph = [&](const Json& params) {
    auto model = load("dense", params);
    std::vector<at::Tensor> gradients;
    std::string forward_graph;
    for (int call = 0; call < 3; ++call) {  // the profiling executor optimises after its first
      for (auto& p : model->parameters()) p.mutable_grad() = at::Tensor();
      const at::Tensor loss = training_loss(*model, x);
      forward_graph = torch::jit::lastExecutedOptimizedGraph()->toString();
      loss.backward();
    }
    for (const auto& p : model->parameters()) gradients.push_back(p.grad().clone());
    return std::make_pair(gradients, forward_graph);
  };
  const auto [plain, plain_graph] = gradients_and_graph(Json::object());
  const auto [optimised, optimised_graph] = gradients_and_graph({{"optimize", true}});
  EXPECT_EQ(plain_graph.find("prim::DifferentiableGraph"), std::string::npos) << plain_graph;
  EXPECT_NE(optimised_graph.find("prim::DifferentiableGraph"), std::string::npos) << optimised_graph;
  ASSERT_EQ(plain.size(), optimised.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_TRUE(torch::allclose(plain[i], optimised[i], 1e-5, 1e-6)) << "parameter " << i;
  EXPECT_TRUE(torch::jit::getGraphExecutorOptimize()) << "a call left the executor's switch off";
  EXPECT_CONTAINS(error_of({{"path", module("dense")}, {"optimize", "yes"}}), "optimize");
}

TEST_F(TorchScriptModel, BuffersAndFrozenParametersAreState) {
  auto batchnorm = load("batchnorm");
  EXPECT_EQ(batchnorm->parameters().size(), 6u);  // two linear layers and BatchNorm's affine
  EXPECT_EQ(batchnorm->buffers().size(), 3u);     // running mean, variance, batches tracked
  auto frozen = load("frozen");
  EXPECT_EQ(frozen->parameters().size(), 2u);  // the second layer's
  EXPECT_EQ(frozen->buffers().size(), 2u);     // the first layer's weight and bias
}

TEST_F(TorchScriptModel, AttributesSetTheModulesOwn) {
  auto model = load("throws_after", {{"attributes", {{"fail_after", 2}}}});
  const auto x = torch::randn({3, 20});
  at::Tensor out;
  EXPECT_TRUE(model->forward(x, &out).is_ok());
  EXPECT_TRUE(model->forward(x, &out).is_ok());
  const plugin::Status third = model->forward(x, &out);
  ASSERT_FALSE(third.is_ok());
  EXPECT_EQ(third.message(),
            "the module's forward raised: RuntimeError: the test module fails at step 3");

  EXPECT_CONTAINS(error_of({{"path", module("throws_after")}, {"attributes", {{"fail", 1}}}}),
                  "/settings/model_params/attributes/fail: the module has no such attribute "
                  "(settable: ");
  EXPECT_CONTAINS(
      error_of({{"path", module("throws_after")}, {"attributes", {{"fail_after", "x"}}}}),
      "/settings/model_params/attributes/fail_after: expected an integer");
}

TEST_F(TorchScriptModel, TheFilesContentIsPartOfTheTrialKey) {
  testing::TempDir dir;
  const std::string path = dir.file("model.pt");
  std::filesystem::copy_file(module("dense"), path);
  const Json experiment = {
      {"name", "x"}, {"settings", {{"model", "torchscript"}, {"model_params", {{"path", path}}}}}};
  const auto key = [&] {
    return expand_trials(parse_experiment(experiment.dump(), "exp.json", {})).at(0).key;
  };
  const std::string before = key();
  EXPECT_EQ(key(), before);
  std::filesystem::copy_file(module("scored"), path,
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_NE(key(), before);
  // A path that is no regular file has no content to hash (and /dev/zero has no end).
  const Json endless = {
      {"name", "x"},
      {"settings", {{"model", "torchscript"}, {"model_params", {{"path", "/dev/zero"}}}}}};
  EXPECT_TRUE(
      expand_trials(parse_experiment(endless.dump(), "exp.json", {})).at(0).model_files.empty());
}

}  // namespace
}  // namespace harness
