// A replay trial run as the sweep runs it, at 2 ranks, on a checked-in capture
// (tests/fixtures/job.json): every rank replays the same buckets through the backend, each in
// its compressed type where asked, and rank 0's record holds every timed step; under the
// sanitizer build this covers the step replay and its communication thread.
#include <gtest/gtest.h>

#include <string>

#include "common/json.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "mpi/trial_groups.h"
#include "mpi_test_util.h"
#include "record/record_json.h"
#include "run/trial_kinds.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "test_support.h"

namespace harness {
namespace {

Json run_replay(const Json& extra) {
  Json settings = {{"job", std::string(HARNESS_SOURCE_DIR) + "/tests/fixtures/job.json"},
                   {"world_size", 2}, {"backend", "shm"}, {"bucket_cap_mb", 0.5},
                   {"warmup_steps", 1}, {"min_steps", 4}, {"min_time_s", 0}, {"quiet_wait_s", 0}};
  settings.update(extra);
  const Experiment e = testing::parse_experiment(
      Json{{"name", "replay"}, {"kind", "replay"}, {"settings", settings}}.dump(), "test", {});
  const Trial trial = expand_trials(e).at(0);
  static const PluginRegistry plugins = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  DataCache data;
  Json record;
  MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, 2, nullptr);
  if (group != MPI_COMM_NULL) {
    TrialContext context{group, 0, 0, &plugins, &data};
    MPI_Comm_rank(group, &context.rank);
    MPI_Comm_size(group, &context.size);
    record = to_json(trial_kind(trial.kind).run(trial, context));
    MPI_Comm_free(&group);
  }
  sleeping_barrier(MPI_COMM_WORLD);
  return record;
}

TEST(ReplayTrial, ReplaysTheCapturedBucketsAndRecordsEveryStep) {
  if (testing::world_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  for (const char* compression : {"none", "fp16"}) {
    const Json record = run_replay({{"compression", compression}});
    if (testing::world_rank() != 0) continue;
    ASSERT_EQ(record["status"], "ok") << record["reason"];
    EXPECT_EQ(record["buckets"]["bytes"], Json({1048576, 5120}));
    EXPECT_EQ(record["buckets"]["wire_dtype"], std::string(compression) == "none" ? "fp32" : "fp16");
    EXPECT_EQ(record["step_times_ms"].size(), record["timing"]["steps"].get<std::size_t>());
    EXPECT_GE(record["timing"]["steps"].get<int>(), 4);
    EXPECT_GT(record["step_time_ms"]["p50"].get<double>(), 0);
    // The job's median step and its phases, as the replay took them from the capture.
    EXPECT_NEAR(record["job"]["step_ms"].get<double>(), 12.6, 1e-9);
    EXPECT_NEAR(record["job"]["backward_compute_ms"].get<double>(), 4.2, 1e-9);
    EXPECT_NEAR(record["job"]["finalize_ms"].get<double>(), 0.525, 1e-9);
  }
}

TEST(ReplayTrial, JoinsAPluginThroughTheBootstrapAloneAsInsidePyTorch) {
  if (testing::world_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  // Under the harness ring links over MPI; inside PyTorch, where there is none, over TCP.
  for (const char* join : {"mpi", "bootstrap"}) {
    const Json record = run_replay({{"backend", "ring"}, {"join", join}});
    if (testing::world_rank() != 0) continue;
    ASSERT_EQ(record["status"], "ok") << record["reason"];
    const std::string links = record["backend"]["algorithm"].get<std::string>();
    EXPECT_EQ(links.find("over TCP") != std::string::npos, std::string(join) == "bootstrap") << links;
  }
  // A plugin that needs MPI declines such a group, and the reason says how it was joined.
  const Json record = run_replay({{"backend", "mpi"}, {"join", "bootstrap"}});
  if (testing::world_rank() != 0) return;
  EXPECT_EQ(record["status"], "skipped");
  EXPECT_NE(record["reason"].get<std::string>().find("join \"mpi\" gives it MPI's communicator"),
            std::string::npos) << record["reason"];
}

}  // namespace
}  // namespace harness
