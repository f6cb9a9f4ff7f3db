// The typed view sinks and planners read (record/trial_run.h): what the serialiser writes reads
// back as the same values; records of other layouts read as unset fields; a record with no
// status this harness knows is refused by name.
#include <gtest/gtest.h>

#include <string>

#include "common/input_error.h"
#include "record/record_json.h"
#include "record/record_upgrade.h"
#include "record/record_verdicts.h"
#include "record/trial_run.h"

namespace harness {
namespace {

TrainRecord distinct_train_record() {
  TrainRecord record;
  record.identity = {"train",
                     "part-a",
                     "key-1",
                     "point-1",
                     7,
                     2,
                     99,
                     4,
                     Json{{"batch_size", 64}},
                     Json{{"lr", 0.01}},
                     Json()};
  record.end = {TrialStatus::kInconsistent, "replicas drifted", 12.5};
  record.backend = BackendRecord{"gloo", "0.5", "ring", std::string("host"), {}, std::nullopt};
  record.training.emplace();
  record.training->steps = 300;
  record.training->epoch_losses = {0.9, 0.4};
  record.training->target.steps = 120;
  record.training->target.time_s = 3.25;
  record.timing.emplace();
  record.timing->throughput = ThroughputRecord{4021.5, 3990, 4100, 3800, {2000, 2021.5}};
  StepTimesRecord times;
  times.p50 = 1.5;
  times.cv = 0.07;
  times.ci95_low = 1.4;
  times.ci95_high = 1.7;
  times.per_rank_median = {1.5, 1.6};
  record.timing->step_time_ms = times;
  record.timing->noise_cv_threshold = 0.05;  // cv above it: noisy
  record.machine_speed.emplace();
  record.machine_speed->not_quiet = 2;
  record.machine_speed->slowdown = 1.8;
  record.detection.emplace();
  record.detection->auroc = 0.91;
  record.detection_points.emplace();
  record.detection_points->auroc = 0.87;
  settle_verdict(record);
  return record;
}

TEST(TrialRun, ATrainRecordReadsBackAsWritten) {
  const TrialRun run = read_trial_run(to_json(distinct_train_record()));
  EXPECT_EQ(run.identity.kind, "train");
  EXPECT_EQ(run.identity.part, "part-a");
  EXPECT_EQ(run.identity.key, "key-1");
  EXPECT_EQ(run.identity.point, "point-1");
  EXPECT_EQ(run.identity.index, 7);
  EXPECT_EQ(run.identity.repetition, 2);
  EXPECT_EQ(run.identity.seed, 99u);
  EXPECT_EQ(run.identity.world_size, 4);
  EXPECT_EQ(run.identity.axes, Json({{"batch_size", 64}}));
  EXPECT_EQ(run.end.status, TrialStatus::kInconsistent);
  EXPECT_EQ(run.end.reason, "replicas drifted");
  EXPECT_DOUBLE_EQ(run.end.wall_time_s, 12.5);
  EXPECT_TRUE(run.measured());
  EXPECT_TRUE(run.verdict.noisy);
  ASSERT_TRUE(run.backend);
  EXPECT_EQ(run.backend->algorithm, "ring");
  EXPECT_EQ(run.backend->memory, std::optional<std::string>("host"));
  ASSERT_TRUE(run.machine_speed);
  EXPECT_EQ(run.machine_speed->not_quiet, 2);
  EXPECT_EQ(run.machine_speed->slowdown, std::optional<double>(1.8));
  ASSERT_TRUE(run.train);
  const TrainFigures& train = *run.train;
  EXPECT_TRUE(train.timed);
  ASSERT_TRUE(train.throughput);
  EXPECT_DOUBLE_EQ(train.throughput->samples_per_s, 4021.5);
  EXPECT_DOUBLE_EQ(train.throughput->ci95_low, 3990);
  EXPECT_DOUBLE_EQ(train.throughput->ci95_high, 4100);
  EXPECT_EQ(train.throughput->samples_per_s_per_rank, (std::vector<double>{2000, 2021.5}));
  ASSERT_TRUE(train.step_time_ms);
  EXPECT_EQ(to_json(*train.step_time_ms), to_json(*distinct_train_record().timing->step_time_ms));
  EXPECT_EQ(train.steps, 300);
  EXPECT_EQ(train.final_loss, std::optional<double>(0.4));
  EXPECT_EQ(train.target.steps, std::optional<long long>(120));
  EXPECT_EQ(train.target.time_s, std::optional<double>(3.25));
  EXPECT_EQ(train.auroc, std::optional<double>(0.91));
  EXPECT_EQ(train.points_auroc, std::optional<double>(0.87));
  EXPECT_FALSE(run.collective);
}

TEST(TrialRun, ACollectiveRecordsPointsReadBackAsWritten) {
  CollectiveRecord record;
  record.identity.kind = "collective";
  record.identity.settings = {{"dtype", "bf16"}, {"op", "max"}, {"timing", "per_iteration"}};
  record.points.emplace(2);
  CollectivePoint& big = record.points->back();
  big.bytes = 1u << 20;
  big.busbw_gbps = 9.5;
  big.busbw_ci_low_gbps = 9.1;
  big.slowdown = 1.2;
  big.wrong = 3;
  big.noisy = true;
  settle_verdict(record);
  const TrialRun run = read_trial_run(to_json(record));
  ASSERT_TRUE(run.collective);
  EXPECT_EQ(run.collective->dtype, "bf16");
  EXPECT_EQ(run.collective->op, "max");
  EXPECT_EQ(run.collective->timing, "per_iteration");
  ASSERT_EQ(run.collective->points.size(), 2u);
  EXPECT_EQ(to_json(run.collective->points[1]), to_json(big));  // every field, nulls included
  EXPECT_EQ(to_json(run.collective->points[0]), to_json(CollectivePoint{}));
  EXPECT_TRUE(run.verdict.noisy);
  EXPECT_FALSE(run.train);
}

TEST(TrialRun, FieldsAnotherLayoutLacksOrSpellsOtherwiseReadAsUnset) {
  const TrialRun run = read_trial_run(upgraded_record({{"key", "k"},
                                       {"record_version", 2},
                                       {"status", "ok"},
                                       {"repetition", "two"},  // not a number
                                       {"throughput", {{"samples_per_s", nullptr}}},
                                       {"loss", {{"final", "n/a"}}},
                                       {"target", {{"reached", false}, {"steps", 10}}}}));
  EXPECT_EQ(run.identity.repetition, 0);
  EXPECT_EQ(run.identity.world_size, 1);
  EXPECT_TRUE(run.identity.axes.is_object());
  EXPECT_FALSE(run.backend);
  ASSERT_TRUE(run.train);
  EXPECT_FALSE(run.train->timed);  // no step was
  EXPECT_FALSE(run.train->throughput);
  EXPECT_FALSE(run.train->final_loss);
  EXPECT_FALSE(run.train->target.reached());
  EXPECT_FALSE(run.verdict.noisy);
  // A frame alone: neither kind's figures.
  const TrialRun frame = read_trial_run({{"key", "k"}, {"status", "hung"}});
  EXPECT_FALSE(frame.train);
  EXPECT_FALSE(frame.collective);
  EXPECT_FALSE(frame.measured());
}

TEST(TrialRun, AStatusThisHarnessDoesNotKnowIsRefusedByName) {
  const auto message = [](const Json& record) {
    try {
      read_trial_run(record);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  EXPECT_EQ(message({{"key", "k"}, {"status", "paused"}}),
            "status is \"paused\", expected one of ok, failed, skipped, diverged, inconsistent, "
            "hung");
  EXPECT_EQ(message({{"key", "k"}}).rfind("status is missing, expected one of ok,", 0), 0u);
  EXPECT_EQ(message(Json::array()).rfind("a trial record is a JSON object", 0), 0u);
}

TEST(TrialRun, TheJsonIsTheRecordAsWritten) {
  const Json record = to_json(distinct_train_record());
  EXPECT_EQ(read_trial_run(record).json, record);
}

}  // namespace
}  // namespace harness
