// Every class of bad experiment input gives exit-code-2 errors that name the JSON pointer
// (or file:line:column) and what was expected.
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "run/trial_validation.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "test_support.h"

namespace harness {
namespace {

using testing::parse_experiment;

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse_experiment(text, "exp.json", overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ExperimentValidation, MalformedJsonNamesLineAndColumn) {
  const std::string message = error_of("{\n  \"name\": \"x\",\n  \"seed\": ,\n}");
  EXPECT_CONTAINS(message, "exp.json:3:");
  EXPECT_CONTAINS(message, "malformed JSON");
}

TEST(ExperimentValidation, DuplicateKeysAreErrorsWithTheirLine) {
  const std::string message = error_of("{\n  \"name\": \"x\",\n  \"seed\": 1,\n  \"seed\": 2\n}");
  EXPECT_CONTAINS(message, "exp.json:4:3: duplicate key \"seed\"");
  // The same key in different objects, and keys inside strings, are fine.
  EXPECT_EQ(error_of(R"({"name": "a", "description": "{,\"name\":", "settings": {"epochs": 1},
                   "parts": [], "seed": 1})"),
            "");
}

TEST(ExperimentValidation, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string message = error_of(R"({"name": "x", "description": )" + deep + "}");
  EXPECT_CONTAINS(message, "exp.json:1:");
  EXPECT_CONTAINS(message, "nested deeper than 64 levels");
}

TEST(ExperimentValidation, NumberOverflowNamesTheLine) {
  const std::string message = error_of("{\"name\": \"x\",\n\"seed\": 1e999}");
  EXPECT_CONTAINS(message, "exp.json:2:9: number 1e999 is out of range");
}

TEST(ExperimentValidation, InvalidUtf8NamesTheLine) {
  const std::string message = error_of("{\"name\": \"x\",\n\"description\": \"\xff\"}");
  EXPECT_CONTAINS(message, "exp.json:2:");
  EXPECT_CONTAINS(message, "UTF-8");
}

// Found by fuzz/set_override_fuzzer: a --set value that is not UTF-8 crashed the error path.
TEST(ExperimentValidation, NonUtf8SetValueIsAnError) {
  const std::string message =
      error_of(R"({"name": "x"})", {std::string("settings.epochs=\x91\xff")});
  EXPECT_CONTAINS(message, "--set: not valid UTF-8 text");
}

TEST(ExperimentValidation, TooManyTrialsIsRefusedBeforeExpanding) {
  const std::string axis = "[1,2,3,4,5,6,7,8,9,10]";
  std::string sweep;
  for (const char* path : {"epochs", "batch_size", "max_steps", "warmup_steps", "threads"})
    sweep += std::string(sweep.empty() ? "" : ",") + "\"" + path + "\": " + axis;
  const std::string message =
      error_of(R"({"name": "x", "repetitions": 10000, "sweep": {)" + sweep + "}}");
  EXPECT_CONTAINS(message, "/max_trials: the sweep expands to 1000000000 trials");
  EXPECT_CONTAINS(message, "more than max_trials = 100000");
}

TEST(ExperimentValidation, AdaptiveRepetitionsNeedRoomAndASpread) {
  EXPECT_CONTAINS(error_of(R"({"name": "x", "repetitions": 5, "max_repetitions": 3})"),
                  "/max_repetitions: expected 0 (off) or at least repetitions = 5, got 3");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "repetitions": 1, "max_repetitions": 4})"),
                  "/repetitions: adaptive repetitions (max_repetitions = 4) need at least 2");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "target_ci": 0})"), "/target_ci");
  EXPECT_EQ(error_of(R"({"name": "x", "repetitions": 3, "max_repetitions": 3})"), "");
}

TEST(ExperimentValidation, KBestNeedsKRepetitionsAndAKnownName) {
  EXPECT_CONTAINS(
      error_of(R"({"name": "x", "repetitions": 2, "estimator": "k_best", "estimator_k": 3})"),
      "/estimator_k: k_best needs at least estimator_k = 3 repetitions of a point, but "
      "repetitions (and max_repetitions) allow only 2");
  EXPECT_EQ(error_of(R"({"name": "x", "repetitions": 2, "max_repetitions": 5,
                         "estimator": "k_best", "estimator_k": 3})"),
            "");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "estimator": "best"})"), "/estimator");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "estimator_k": 1})"), "/estimator_k");
}

TEST(ExperimentValidation, EchoedValuesAreCut) {
  const std::string message =
      error_of(R"({"name": "x", "seed": ")" + std::string(100000, 'z') + "\"}");
  EXPECT_CONTAINS(message, "(100002 characters)");
  EXPECT_LT(message.size(), 400u);
}

TEST(ExperimentValidation, UnknownTopLevelKeySuggestsTheRightOne) {
  const std::string message = error_of(R"({"name": "x", "repetitons": 2})");
  EXPECT_CONTAINS(message, "/repetitons: unknown key");
  EXPECT_CONTAINS(message, "did you mean \"repetitions\"");
}

TEST(ExperimentValidation, UnknownNestedSettingSuggestsSibling) {
  const std::string message =
      error_of(R"({"name": "x", "settings": {"optimizer": {"name": "adam", "lrate": 0.1}}})");
  EXPECT_CONTAINS(message, "/settings/optimizer/lrate: unknown key");
  EXPECT_CONTAINS(message, "did you mean \"lr\"");
}

TEST(ExperimentValidation, WrongTypeNamesPointerAndExpectation) {
  const std::string message = error_of(R"({"name": "x", "settings": {"batch_size": "32"}})");
  EXPECT_CONTAINS(message, "/settings/batch_size: expected an integer in [1, 1e+07], got \"32\"");
}

TEST(ExperimentValidation, OutOfRangeValue) {
  EXPECT_CONTAINS(error_of(R"({"name": "x", "settings": {"optimizer": {"lr": 0}}})"),
                  "/settings/optimizer/lr: expected a number in (0, 100], got 0");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "repetitions": 0})"),
                  "/repetitions: expected an integer in [1, 100000], got 0");
}

TEST(ExperimentValidation, BadChoiceSuggestsClosest) {
  const std::string message = error_of(R"({"name": "x", "settings": {"lr_rule": "lineer"}})");
  EXPECT_CONTAINS(message, "/settings/lr_rule: expected one of \"none\", \"linear\", \"sqrt\"");
  EXPECT_CONTAINS(message, "did you mean \"linear\"");
}

TEST(ExperimentValidation, MissingNameIsRequired) {
  EXPECT_CONTAINS(error_of(R"({"kind": "train"})"), ": missing required key \"name\"");
}

TEST(ExperimentValidation, NameMustBeAFolderName) {
  EXPECT_CONTAINS(error_of(R"({"name": "../etc"})"), "/name: expected letters, digits");
}

TEST(ExperimentValidation, SweepAxisMustBeKnownAndNonEmpty) {
  EXPECT_CONTAINS(
      error_of(R"({"name": "x", "sweep": {"batchsize": [1]}})"),
      "/sweep/batchsize: unknown settings path \"batchsize\" (did you mean \"batch_size\"?)");
  EXPECT_CONTAINS(error_of(R"({"name": "x", "sweep": {"batch_size": []}})"),
                  "/sweep/batch_size: expected a non-empty array");
}

TEST(ExperimentValidation, SweepValuesAreCheckedLikeSettings) {
  EXPECT_CONTAINS(error_of(R"({"name": "x", "sweep": {"world_size": [1, 0]}})"),
                  "/sweep/world_size/1: expected an integer in [1, 65536], got 0");
}

TEST(ExperimentValidation, ReportsEveryProblemAtOnce) {
  const std::string message =
      error_of(R"({"name": "x", "settings": {"epochs": -1, "batch_size": 0}})");
  EXPECT_CONTAINS(message, "/settings/epochs");
  EXPECT_CONTAINS(message, "/settings/batch_size");
}

TEST(ExperimentValidation, SetOverridesApplyBeforeValidation) {
  const Experiment e = parse_experiment(R"({"name": "x"})", "exp.json",
                                        {"settings.batch_size=64", "settings.optimizer.name=sgd"});
  EXPECT_EQ(e.parts.at(0).settings["batch_size"], 64);
  EXPECT_EQ(e.parts.at(0).settings["optimizer"]["name"], "sgd");
  EXPECT_CONTAINS(error_of(R"({"name": "x"})", {"settings.batch_size=big"}),
                  "/settings/batch_size: expected an integer");
  EXPECT_CONTAINS(error_of(R"({"name": "x"})", {"novalue"}), "--set novalue: expected path=value");
}

TEST(ExperimentValidation, UnknownKindIsRejected) {
  EXPECT_CONTAINS(error_of(R"({"name": "x", "kind": "inference"})"),
                  "/kind: expected one of \"train\", \"collective\"");
}

class TrialValidation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry(PluginRegistry::discover({HARNESS_PLUGIN_DIR}));
  }
  static std::string error_of_trials(const std::string& text, int ranks = 4) {
    try {
      const Experiment e = parse_experiment(text, "exp.json", {});
      DataCache data;
      validate_trials(e, expand_trials(e), *registry_, data, ranks);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  static PluginRegistry* registry_;
};
PluginRegistry* TrialValidation::registry_ = nullptr;

TEST_F(TrialValidation, ValidExperimentPasses) {
  EXPECT_EQ(error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}}})"), "");
}

TEST_F(TrialValidation, UnknownBackendListsAvailable) {
  const std::string message = error_of_trials(R"({"name": "x", "settings": {"backend": "mpii"}})");
  EXPECT_CONTAINS(message, "/settings/backend: unknown communicator plugin \"mpii\"");
  EXPECT_CONTAINS(message, "did you mean \"mpi\"");
  EXPECT_CONTAINS(message, "available: ");
}

TEST_F(TrialValidation, UnknownSweptModelPointsAtTheSweep) {
  const std::string message =
      error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}}, )"
                      R"("sweep": {"model": ["autoencoder", "vae"]}})");
  EXPECT_CONTAINS(message, "/sweep/model/1: unknown model plugin \"vae\"");
}

// A sweep of many parameter objects: the message names the entry the trial took and the path
// inside it, a zipped axis its element too.
TEST_F(TrialValidation, ASweptParameterIsNamedByItsEntryAndThePathInsideIt) {
  const std::string message = error_of_trials(
      R"({"name": "x", "settings": {"dataset": {"rows": 200}, "world_size": 2}, "sweep": {)"
      R"("backend, backend_params": [["ring", {}], ["ring", {"chunk_bytes": "big"}]],)"
      R"("model_params": [{}, {"hidden": [10, 3]}, {"activation": "nope"}]}})");
  EXPECT_CONTAINS(message, "/sweep/backend, backend_params/1/1/chunk_bytes:");
  EXPECT_CONTAINS(message, "/sweep/model_params/2/activation:");
  EXPECT_CONTAINS(
      error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}, "world_size": 2,)"
                      R"("backend": "hierarchical"}, "sweep": {"backend_params": [{"inter": "mpi"},)"
                      R"({"inter": "ring", "inter_params": {"chunk_bytes": "big"}}]}})"),
      "/sweep/backend_params/1/inter_params/chunk_bytes:");
}

TEST_F(TrialValidation, ModelParameterErrorsComeFromThePlugin) {
  const std::string message = error_of_trials(
      R"({"name": "x", "settings": {"dataset": {"rows": 200}, "model_params": {"hidden": [10, )"
      R"(-3]}}})");
  EXPECT_CONTAINS(message, "/settings/model_params/hidden/1: expected an integer");
  EXPECT_CONTAINS(
      error_of_trials(
          R"({"name": "x", "settings": {"dataset": {"rows": 200}, "model_params": {"depth": 3}}})"),
      "/settings/model_params/depth: unknown parameter");
}

TEST_F(TrialValidation, ConflictingInputDimIsRejected) {
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}, )"
                                  R"("model_params": {"input_dim": 7}}})"),
                  "/settings/model_params/input_dim: set from the data set's 20 features");
}

TEST_F(TrialValidation, BackendParametersAreChecked) {
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}, )"
                                  R"("backend_params": {"algo": 1}}})"),
                  "/settings/backend_params/algo: unknown parameter");
}

TEST_F(TrialValidation, CompressionNeedsABackendThatReducesTheType) {
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}, )"
                                  R"("backend": "gloo", "compression": "bf16"}})"),
                  "/settings/compression: backend \"gloo\" does not reduce bf16 (it lists fp32, "
                  "fp64, fp16)");
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"dataset": {"rows": 200}, )"
                                  R"("compression": "fp8"}})"),
                  "/settings/compression");
}

TEST_F(TrialValidation, MissingDataFileIsNamed) {
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"dataset": {"kind": "csv", )"
                                  R"("path": "/nonexistent/d.csv"}}})"),
                  "/nonexistent/d.csv: cannot open the data file");
}

TEST_F(TrialValidation, WorldSizeAboveLaunchedRanksNamesBothAndTheFix) {
  const std::string message = error_of_trials(
      R"({"name": "x", "settings": {"dataset": {"rows": 200}}, "sweep": {"world_size": [1, 8]}})",
      2);
  EXPECT_CONTAINS(message, "/sweep/world_size: a trial needs world_size 8 but the job has 2 ranks");
  EXPECT_CONTAINS(message, "mpirun -np 8");
}

TEST_F(TrialValidation, InputKindsMustMatch) {
  EXPECT_CONTAINS(
      error_of_trials(R"({"name": "x", "settings": {"model": "lstm", "dataset": {"rows": 200}}})"),
      "/settings/model: model \"lstm\" takes sequence input but data set kind \"synthetic\" is "
      "tabular");
  EXPECT_CONTAINS(
      error_of_trials(
          R"({"name": "x", "settings": {"dataset": {"kind": "synthetic_series", "length": 400, )"
          R"("dim": 2, "events": 2}}})"),
      "model \"autoencoder\" takes tabular input but data set kind \"synthetic_series\" is "
      "sequence");
  EXPECT_EQ(
      error_of_trials(
          R"({"name": "x", "settings": {"model": "transformer", )"
          R"("dataset": {"kind": "synthetic_series", "length": 400, "dim": 2, "events": 2}}})"),
      "");
}

TEST_F(TrialValidation, SyntheticLatentDimMustBeBelowDim) {
  EXPECT_CONTAINS(
      error_of_trials(
          R"({"name": "x", "settings": {"dataset": {"rows": 200, "dim": 4, "latent_dim": 4}}})"),
      "/settings/dataset/latent_dim: expected less than dim (4), got 4");
}

// Defect: event_length > length underflowed the event start and wrote out of bounds.
TEST_F(TrialValidation, SyntheticSeriesEventLongerThanSeriesIsAnError) {
  EXPECT_CONTAINS(
      error_of_trials(
          R"({"name": "x", "settings": {"model": "lstm", "dataset": {"kind": "synthetic_series",
                         "length": 100, "event_length": 500, "window": 8}}})"),
      "/settings/dataset/event_length: expected at most dataset.length (100), got 500");
}

// Defect: data-layer errors named /settings/dataset/... whatever part or axis set the value.
TEST_F(TrialValidation, DataErrorsPointIntoPartsAndSweeps) {
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "parts": [{"name": "p", "kind": "train",
                     "settings": {"dataset": {"rows": 200, "dim": 4, "latent_dim": 4}}}]})"),
                  "/parts/0/settings/dataset/latent_dim: expected less than dim (4), got 4");
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "settings": {"model": "lstm",
                     "dataset": {"kind": "synthetic_series", "length": 100, "events": 2}},
                     "sweep": {"dataset.window": [8, 60]}})"),
                  "/sweep/dataset.window/1: synthetic series 100x20 series 0 has 100 points, too few "
                  "for a window of 60");
  EXPECT_CONTAINS(error_of_trials(R"({"name": "x", "parts": [{"name": "p", "kind": "train",
                     "settings": {"dataset": {"rows": 200}, "model_params": {"input_dim": 7}}}]})"),
                  "/parts/0/settings/model_params/input_dim: set from the data set's 20 features");
}

}  // namespace
}  // namespace harness
