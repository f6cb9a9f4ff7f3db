#include <gtest/gtest.h>

#include <set>

#include "experiment.h"
#include "trial.h"

namespace harness {
namespace {

TEST(Sweep, CartesianProductInFileOrderLastAxisFastest) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "repetitions": 2, "seed": 10,
          "sweep": {"world_size": [1, 2], "batch_size": [32, 64, 128]}})",
      "exp.json", {});
  const auto trials = expand_trials(e);
  ASSERT_EQ(trials.size(), 2u * 3u * 2u);
  EXPECT_EQ(trials[0].settings["world_size"], 1);
  EXPECT_EQ(trials[0].settings["batch_size"], 32);
  EXPECT_EQ(trials[0].repetition, 0);
  EXPECT_EQ(trials[0].seed, 10u);
  EXPECT_EQ(trials[1].repetition, 1);
  EXPECT_EQ(trials[1].seed, 11u);
  EXPECT_EQ(trials[2].settings["batch_size"], 64);
  EXPECT_EQ(trials[6].settings["world_size"], 2);
  EXPECT_EQ(trials[6].axes.dump(), R"({"world_size":2,"batch_size":32})");
  for (std::size_t i = 0; i < trials.size(); ++i) EXPECT_EQ(trials[i].index, i);
}

TEST(Sweep, DefaultsAreFilledAndNestedPathsSwept) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "settings": {"optimizer": {"name": "sgd"}},
          "sweep": {"optimizer.lr": [0.1, 0.01]}})",
      "exp.json", {});
  const auto trials = expand_trials(e);
  ASSERT_EQ(trials.size(), 2u);
  EXPECT_EQ(trials[1].settings["optimizer"]["lr"], 0.01);
  EXPECT_EQ(trials[1].settings["optimizer"]["name"], "sgd");
  EXPECT_EQ(trials[1].settings["optimizer"]["momentum"], 0.9);  // default
  EXPECT_EQ(trials[0].settings["epochs"], 5);
}

TEST(Sweep, ObjectValuesMergeIntoSettings) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "settings": {"dataset": {"rows": 500}},
          "sweep": {"dataset": [{"dim": 10}, {"dim": 30}]}})",
      "exp.json", {});
  const auto trials = expand_trials(e);
  EXPECT_EQ(trials[1].settings["dataset"]["dim"], 30);
  EXPECT_EQ(trials[1].settings["dataset"]["rows"], 500);
}

TEST(Sweep, NoSweepIsOneTrial) {
  EXPECT_EQ(expand_trials(parse_experiment(R"({"name": "x"})", "e", {})).size(), 1u);
}

TEST(Sweep, KeysAreUniqueAndIndependentOfFieldOrder) {
  const auto a = expand_trials(parse_experiment(
      R"({"name": "x", "settings": {"epochs": 2, "batch_size": 8}, "sweep": {"world_size": [1, 2]}})",
      "e", {}));
  const auto b = expand_trials(parse_experiment(
      R"({"name": "x", "settings": {"batch_size": 8, "epochs": 2}, "sweep": {"world_size": [1, 2]}})",
      "e", {}));
  ASSERT_EQ(a.size(), 2u);
  EXPECT_NE(a[0].key, a[1].key);
  EXPECT_EQ(a[0].key, b[0].key);
  EXPECT_EQ(a[1].key, b[1].key);
}

}  // namespace
}  // namespace harness
