// World-size sub-groups, agreement on problems, and the training trial's distributed
// guarantees: identical parameters on every rank, and the same seed giving the same curve.
#include <gtest/gtest.h>

#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "mpi/trial_groups.h"
#include "mpi_test_util.h"
#include "run/trial_kinds.h"
#include "spec/experiment.h"
#include "spec/schema.h"
#include "spec/trial_expansion.h"
#include "test_support.h"
#include "training_run.h"
#include "trial/group_agreement.h"

namespace harness {
namespace {

using testing::parse_experiment;

using testing::world_rank;
using testing::world_size;

TEST(Groups, FirstRanksFormTheGroupOthersGetNull) {
  for (int k = 1; k <= world_size(); ++k) {
    MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, k, nullptr);
    if (world_rank() < k) {
      ASSERT_NE(group, MPI_COMM_NULL);
      int size = 0, rank = 0;
      MPI_Comm_size(group, &size);
      MPI_Comm_rank(group, &rank);
      EXPECT_EQ(size, k);
      EXPECT_EQ(rank, world_rank());
      MPI_Comm_free(&group);
    } else {
      EXPECT_EQ(group, MPI_COMM_NULL);
    }
    sleeping_barrier(MPI_COMM_WORLD);
  }
}

TEST(Groups, EveryRankLearnsTheFirstProblem) {
  const GroupProblem none = agree_on_problem(MPI_COMM_WORLD, {}, nullptr);
  EXPECT_FALSE(none.any());
  GroupProblem mine;
  if (world_rank() >= 1)
    mine = {TrialStatus::kSkipped, "broken on " + std::to_string(world_rank())};
  const GroupProblem agreed = agree_on_problem(MPI_COMM_WORLD, mine, nullptr);
  EXPECT_EQ(agreed.status, TrialStatus::kSkipped);
  EXPECT_EQ(agreed.reason, "rank 1: broken on 1");
}

class DistributedTraining : public ::testing::Test {
 protected:
  Json run(int world, std::uint64_t seed, const std::string& extra = "{}") {
    return testing::run_training(world, seed, extra, plugins_, data_);
  }
  PluginRegistry plugins_ = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  DataCache data_;
};

TEST_F(DistributedTraining, ParametersIdenticalOnAllRanksAfterTraining) {
  const Json record = run(world_size(), 3);
  if (world_rank() != 0) return;
  EXPECT_EQ(record["status"], "ok") << record["reason"];
  EXPECT_EQ(record["params_consistent"], true);
  EXPECT_EQ(record["world_size"], world_size());
  // 600 rows, 30% test, 5% anomalies out of training: every rank gets ceil(n / N) rows.
  const std::size_t train_rows = record["data"]["train_rows"];
  const std::size_t shard = (train_rows + world_size() - 1) / world_size();
  EXPECT_EQ(record["steps_per_epoch"], (shard + 15) / 16);
  EXPECT_EQ(record["throughput"]["samples_per_s_per_rank"].size(),
            static_cast<std::size_t>(world_size()));
  EXPECT_GT(record["detection"]["auroc"].get<double>(), 0.5);
}

TEST_F(DistributedTraining, SameSeedSameLossCurveOtherSeedDifferent) {
  const Json a = run(world_size(), 5), b = run(world_size(), 5), c = run(world_size(), 6);
  if (world_rank() != 0) return;
  ASSERT_EQ(a["status"], "ok");
  EXPECT_EQ(a["loss"]["per_step"], b["loss"]["per_step"]);
  EXPECT_EQ(a["param_hash"], b["param_hash"]);
  EXPECT_NE(a["loss"]["per_step"], c["loss"]["per_step"]);
}

TEST_F(DistributedTraining, SequenceModelsStayConsistentAndScorePoints) {
  for (const char* model : {"lstm", "transformer"}) {
    const Json record =
        run(world_size(), 2,
            std::string(R"({"model": ")") + model +
                R"(", "dataset": {"kind": "synthetic_series", "length": 1200, "dim": 2, )"
                R"("events": 6, "window": 8, "stride": 4}, "epochs": 1})");
    if (world_rank() != 0) continue;
    EXPECT_EQ(record["status"], "ok") << model << ": " << record["reason"];
    EXPECT_EQ(record["params_consistent"], true) << model;
    EXPECT_EQ(record["data"]["window"], 8);
    EXPECT_TRUE(record["detection_points"]["auroc"].is_number()) << model;
  }
}

TEST_F(DistributedTraining, SubGroupTrainsWhileOthersWait) {
  const Json record = run(2, 1);
  if (world_rank() != 0) return;
  EXPECT_EQ(record["status"], "ok") << record["reason"];
  EXPECT_EQ(record["world_size"], 2);
  EXPECT_EQ(record["params_consistent"], true);
}

TEST_F(DistributedTraining, DivergenceIsRecordedNotFatal) {
  const Json record =
      run(world_size(), 1, R"({"optimizer": {"name": "sgd", "lr": 90, "momentum": 0.99}})");
  if (world_rank() != 0) return;
  EXPECT_EQ(record["status"], "diverged");
  EXPECT_NE(record["reason"].get<std::string>().find("global loss became"), std::string::npos);
}

TEST_F(DistributedTraining, BackendFailureOnInitFailsTheTrialOnEveryRank) {
  PluginRegistry with_test_plugins =
      PluginRegistry::discover({HARNESS_PLUGIN_DIR, HARNESS_TEST_PLUGIN_DIR});
  plugins_ = std::move(with_test_plugins);
  const Json record =
      run(world_size(), 1, R"({"backend": "throwing", "backend_params": {"fail_init": 1}})");
  if (world_rank() != 0) return;
  EXPECT_EQ(record["status"], "failed");
  EXPECT_NE(record["reason"].get<std::string>().find("configured to fail init"), std::string::npos);
}

// The last rank's forward raises at its third step while the others go on to the allreduce:
// the trial fails on every rank with that rank's number and message, and every rank returns.
TEST_F(DistributedTraining, AnExceptionOnOneRankFailsTheTrialOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  plugins_ = PluginRegistry::discover({HARNESS_PLUGIN_DIR, HARNESS_TEST_PLUGIN_DIR});
  for (const char* overlap : {"false", "true"}) {
    const Json record = run(world_size(), 1,
                            std::string(R"({"model": "rank_raising", "overlap": )") + overlap + "}");
    if (world_rank() != 0) continue;
    EXPECT_EQ(record["status"], "failed") << overlap;
    EXPECT_EQ(record["reason"],
              "rank " + std::to_string(world_size() - 1) +
                  ": model forward: the last rank's forward raised at call 3 (step 2)")
        << overlap;
  }
}

}  // namespace
}  // namespace harness
