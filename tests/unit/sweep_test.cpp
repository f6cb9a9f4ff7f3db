#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/input_error.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "test_support.h"

namespace harness {
namespace {

using testing::parse_experiment;

TEST(Sweep, CartesianProductInFileOrderLastAxisFastest) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "repetitions": 2, "seed": 10, "order": "sequential",
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
      R"({"name": "x", "settings": {"epochs": 2, "batch_size": 8}, "sweep": {"world_size": [1, )"
      R"(2]}})",
      "e", {}));
  const auto b = expand_trials(parse_experiment(
      R"({"name": "x", "settings": {"batch_size": 8, "epochs": 2}, "sweep": {"world_size": [1, )"
      R"(2]}})",
      "e", {}));
  ASSERT_EQ(a.size(), 2u);
  EXPECT_NE(a[0].key, a[1].key);
  EXPECT_EQ(a[0].key, b[0].key);
  EXPECT_EQ(a[1].key, b[1].key);
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

TEST(Parts, EachPartExpandsWithItsOwnKindAndSchema) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "parts": [
            {"name": "bench", "kind": "collective", "settings": {"iters": 3},
             "sweep": {"backend": ["mpi", "ring"]}},
            {"name": "train", "kind": "train", "sweep": {"world_size": [1, 2]}}]})",
      "exp.json", {});
  const auto trials = expand_trials(e);
  ASSERT_EQ(trials.size(), 4u);
  EXPECT_EQ(trials[0].kind, "collective");
  EXPECT_EQ(trials[0].part, "bench");
  EXPECT_EQ(trials[0].settings["iters"], 3);
  EXPECT_EQ(trials[3].kind, "train");
  EXPECT_EQ(trials[3].index, 3u);
  EXPECT_EQ(trials[3].settings["world_size"], 2);
}

TEST(Parts, ErrorsNameThePartPointer) {
  auto error_of = [](const std::string& text) {
    try {
      parse_experiment(text, "exp.json", {});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(R"({"name": "x", "parts": [{"name": "a", "kind": "collective", )"
                     R"("settings": {"iter": 3}}]})")
                .find("/parts/0/settings/iter: unknown key \"iter\" (did you mean \"iters\"?)"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name": "x", "kind": "train", "parts": [{"name": "a", "kind": "train"}]})")
                .find("/kind: not allowed beside \"parts\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name": "x", "parts": [{"kind": "train"}]})")
                .find("/parts/0: missing required key \"name\""),
            std::string::npos);
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

TEST(ZippedAxes, SetSeveralPathsTogether) {
  const Experiment e = parse_experiment(
      R"({"name": "x", "sweep": {"backend, backend_params": [["mpi", {}], ["gloo", )"
      R"({"algorithm": "bcube"}]],
                                 "world_size": [1, 2]}})",
      "exp.json", {});
  const auto trials = expand_trials(e);
  ASSERT_EQ(trials.size(), 4u);
  EXPECT_EQ(trials[2].settings["backend"], "gloo");
  EXPECT_EQ(trials[2].settings["backend_params"]["algorithm"], "bcube");
  EXPECT_EQ(trials[2].axes.dump(),
            R"({"backend":"gloo","backend_params":{"algorithm":"bcube"},"world_size":1})");
}

TEST(ZippedAxes, ValuesMustMatchThePaths) {
  try {
    parse_experiment(
        R"({"name": "x", "sweep": {"backend, world_size": [["mpi", 2], ["gloo"], ["ring", 0]]}})",
        "exp.json", {});
    FAIL();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(
        message.find(
            "/sweep/backend, world_size/1: a zipped axis of 2 paths needs an array of 2 values"),
        std::string::npos)
        << message;
    EXPECT_NE(message.find("/sweep/backend, world_size/2/1: expected an integer"),
              std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

using testing::parse_experiment;

// (point, repetition) of each trial in run order; point 0 is batch_size 8, point 1 is 16.
std::vector<std::pair<int, int>> run_order(const std::string& order) {
  const auto trials =
      expand_trials(parse_experiment(R"({"name": "x", "seed": 7, "repetitions": 3, "order": ")" +
                                         order + R"(", "sweep": {"batch_size": [8, 16]}})",
                                     "exp.json", {}));
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    EXPECT_EQ(trials[i].index, i);
    out.emplace_back(trials[i].settings["batch_size"] == 8 ? 0 : 1, trials[i].repetition);
  }
  return out;
}

TEST(TrialOrder, SequentialKeepsEachPointsRepetitionsTogether) {
  EXPECT_EQ(run_order("sequential"),
            (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

TEST(TrialOrder, InterleavedRunsRepetitionRBeforeRPlusOne) {
  EXPECT_EQ(run_order("interleaved"),
            (std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
}

TEST(TrialOrder, RandomIsASeededPermutation) {
  const auto a = run_order("random"), b = run_order("random");
  EXPECT_EQ(a, b);  // the same seed, the same order
  // Fisher-Yates over the sequential order with SplitMix64(seed 7 ^ 0x6f72646572), worked
  // out independently (a few lines of Python) for this test.
  EXPECT_EQ(a, (std::vector<std::pair<int, int>>{{1, 0}, {0, 0}, {1, 2}, {1, 1}, {0, 2}, {0, 1}}));
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, run_order("sequential"));
}

TEST(TrialOrder, KeysAndPointsDoNotDependOnTheOrder) {
  const auto keys = [](const std::string& order) {
    std::set<std::string> out;
    for (const auto& t :
         expand_trials(parse_experiment(R"({"name": "x", "repetitions": 2, "order": ")" + order +
                                            R"(", "sweep": {"batch_size": [8, 16]}})",
                                        "exp.json", {})))
      out.insert(t.key + "/" + t.point);
    return out;
  };
  EXPECT_EQ(keys("sequential"), keys("interleaved"));
  EXPECT_EQ(keys("sequential"), keys("random"));
  EXPECT_EQ(keys("sequential").size(), 4u);
}

}  // namespace
}  // namespace harness
