// The typed records and their one declaration: every field a fully filled record writes is in
// the results reference for its kind, it reads back to the same record, it follows the record
// schema, and the noisy verdict follows its one definition (record/record_verdicts.cpp).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/json_schema_check.h"
#include "record/record_json.h"
#include "record/record_reader.h"
#include "record/record_reference.h"
#include "record/record_schema.h"
#include "record/record_verdicts.h"

namespace harness {
namespace {

// Every part present, so the serialiser writes every field it knows.
TrainRecord filled_train_record() {
  TrainRecord record;
  record.identity.kind = "train";
  record.identity.key = "k";
  record.backend.emplace();
  record.backend->memory = "host";
  record.model.emplace();
  record.model->buffers.emplace();
  record.data.emplace();
  record.gradient_reduction.emplace();
  record.memory.emplace();
  record.training.emplace();
  record.timing.emplace();
  StepTimingRecord& timing = *record.timing;
  timing.throughput.emplace();
  timing.step_time_ms.emplace();
  timing.overlap_fraction = 0.5;
  timing.slow_steps.emplace();
  timing.stragglers.emplace();
  record.machine_speed.emplace();
  record.machine_speed->slowdown = 1.0;
  record.training->validation_loss = 0.1;
  record.detection.emplace();
  record.detection_points.emplace();
  record.trace_file = "traces/k/trace.json";
  return record;
}

// The record's field paths, the way the reference spells them ("points[].bytes").
void collect_paths(const Json& value, const std::string& prefix, std::set<std::string>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      const std::string path = prefix.empty() ? key : prefix + "." + key;
      out.insert(path);
      if (key != "settings" && key != "axes" && key != "model_files")
        collect_paths(item, path, out);
    }
  } else if (value.is_array() && !value.empty() && value.front().is_object()) {
    collect_paths(value.front(), prefix + "[]", out);
  }
}

std::set<std::string> listed_paths(RecordKinds kind) {
  std::set<std::string> paths;
  for (const RecordField& field : record_fields())
    if (includes(field.kinds, kind)) paths.insert(field.path);
  return paths;
}

TEST(RecordJson, EveryFieldOfAFullTrainRecordIsInTheReference) {
  std::set<std::string> written;
  collect_paths(to_json(filled_train_record()), "", written);
  const std::set<std::string> listed = listed_paths(RecordKinds::kTrain);
  for (const std::string& path : written) EXPECT_TRUE(listed.count(path)) << path << " not listed";
  EXPECT_TRUE(written.count("trace_file"));
  EXPECT_TRUE(written.count("machine_speed.slowdown"));
}

TEST(RecordJson, EveryFieldOfACollectiveRecordIsInTheReference) {
  CollectiveRecord record;
  record.identity.kind = "collective";
  record.backend.emplace();
  record.points.emplace(2);
  record.machine_speed.emplace();
  std::set<std::string> written;
  collect_paths(to_json(record), "", written);
  const std::set<std::string> listed = listed_paths(RecordKinds::kCollective);
  for (const std::string& path : written) EXPECT_TRUE(listed.count(path)) << path << " not listed";
  EXPECT_TRUE(written.count("points[].bytes"));
}

// A replay record with every part, as a replay that timed its steps writes it.
ReplayRecord filled_replay_record() {
  ReplayRecord record;
  record.identity.kind = "replay";
  record.identity.key = "k";
  record.backend.emplace();
  record.job.emplace();
  record.buckets.emplace();
  record.buckets->bytes = {1048576, 2048};
  record.buckets->launch_ms = {3.5, 7.25};
  record.timing.emplace();
  record.timing->step_time_ms.emplace();
  record.timing->slow_steps.emplace();
  record.step_times_ms = std::vector<double>{10.5, 11};
  record.machine_speed.emplace();
  return record;
}

TEST(RecordJson, EveryFieldOfAReplayRecordIsInTheReferenceAndReadsBack) {
  const Json written = to_json(filled_replay_record());
  std::set<std::string> paths;
  collect_paths(written, "", paths);
  const std::set<std::string> listed = listed_paths(RecordKinds::kReplay);
  for (const std::string& path : paths) EXPECT_TRUE(listed.count(path)) << path << " not listed";
  EXPECT_TRUE(paths.count("buckets.launch_ms"));
  EXPECT_TRUE(paths.count("step_time_ms.p50"));  // the train record's timing part, shared
  EXPECT_FALSE(listed.count("loss.final"));      // a train record's own
  EXPECT_EQ(to_json(read_replay_record(written)), written);
  EXPECT_EQ(schema_problems(record_schema(), written), std::vector<std::string>{});
}

TEST(RecordJson, TheRecordVersionAndFrameComeFirst) {
  const Json frame = to_json(TrialIdentity{}, TrialEnd{TrialStatus::kFailed, "why", 1.5});
  ASSERT_TRUE(frame.is_object());
  EXPECT_EQ(frame.items().begin().key(), "record_version");
  EXPECT_EQ(frame["record_version"], kRecordVersion);
  EXPECT_EQ(frame["status"], "failed");
  EXPECT_EQ(frame["reason"], "why");
  EXPECT_FALSE(frame.contains("noisy"));
}

TEST(RecordJson, AWrittenRecordReadsBackToTheSameRecord) {
  TrainRecord record = filled_train_record();
  record.identity.settings = {{"epochs", 2}};
  record.training->epoch_losses = {0.5, 0.25};
  record.training->target.steps = 12;
  record.timing->throughput->ci95_low = 9;
  record.timing->throughput->ci95_high = 11;
  record.timing->stragglers->last_arrivals = {3, 1};
  const Json written = to_json(record);
  EXPECT_EQ(to_json(read_train_record(written)), written);

  CollectiveRecord collective;
  collective.identity.kind = "collective";
  collective.points.emplace(2);
  (*collective.points)[1].wrong = 0;
  (*collective.points)[1].bytes = 64;
  EXPECT_EQ(to_json(read_collective_record(to_json(collective))), to_json(collective));
}

TEST(RecordJson, FilledRecordsFollowTheRecordSchema) {
  const Json schema = record_schema();
  Json train = to_json(filled_train_record());
  EXPECT_EQ(schema_problems(schema, train), std::vector<std::string>{});
  CollectiveRecord collective;
  collective.identity.kind = "collective";
  collective.backend.emplace();
  collective.points.emplace(1);
  collective.machine_speed.emplace();
  EXPECT_EQ(schema_problems(schema, to_json(collective)), std::vector<std::string>{});
  TrialIdentity failed;
  failed.kind = "collective";
  EXPECT_EQ(schema_problems(schema, to_json(failed, TrialEnd{TrialStatus::kFailed, "x", 1})),
            std::vector<std::string>{});
}

TEST(RecordJson, TheSchemaRefusesUndeclaredMissingAndMistypedFields) {
  const Json schema = record_schema();
  Json train = to_json(filled_train_record());
  train["throughput"]["samples_per_second"] = 1;
  train["step_time_ms"]["p50"] = "fast";
  train.erase("model");
  const auto problems = schema_problems(schema, train);
  ASSERT_EQ(problems.size(), 3u) << ::testing::PrintToString(problems);
  const std::string all = problems[0] + problems[1] + problems[2];
  EXPECT_NE(all.find("/: \"model\" is missing"), std::string::npos) << all;
  EXPECT_NE(all.find("/throughput: \"samples_per_second\" is not a declared field"), std::string::npos);
  EXPECT_NE(all.find("/step_time_ms/p50: \"fast\" is not of type number"), std::string::npos);
  // A failed trial's record carries its frame alone; without its key it is no record.
  TrialIdentity failed;
  failed.kind = "train";
  Json frame = to_json(failed, TrialEnd{TrialStatus::kFailed, "x", 1});
  frame.erase("key");
  EXPECT_EQ(schema_problems(schema, frame), std::vector<std::string>{"/: \"key\" is missing"});
}

TEST(RecordJson, NoisyIsTheTimingSpreadAStallOrASlowSpell) {
  TrainRecord record = filled_train_record();
  record.timing->noise_cv_threshold = 0.3;
  record.timing->step_time_ms->cv = 0.1;
  settle_verdict(record);
  EXPECT_FALSE(record.verdict.noisy);
  EXPECT_EQ(to_json(record)["noisy"], false);
  EXPECT_FALSE(to_json(record).contains("noisy_because"));

  record.timing->step_time_ms->cv = 0.4;
  settle_verdict(record);
  EXPECT_TRUE(record.verdict.noisy);
  EXPECT_EQ(to_json(record)["noisy"], true);
  EXPECT_EQ(to_json(record)["noisy_because"], "step times' cv 0.4 above noise_cv_threshold 0.3");

  record.timing->step_time_ms->cv = 0.1;
  record.timing->slow_steps->training = 1;
  settle_verdict(record);
  EXPECT_EQ(record.verdict.noisy_because, "1 slow step(s)");

  record.timing->slow_steps->training = 0;
  record.machine_speed->last_quiet = false;
  record.machine_speed->slowdown = 1.5;
  settle_verdict(record);
  EXPECT_EQ(record.verdict.noisy_because,
            "a slow spell the quiet gate could not wait out (speed canary 1.50x its fastest)");
}

TEST(RecordJson, OversubscribedIsTheGroupsCrowdingVerdict) {
  TrainRecord record = filled_train_record();
  settle_verdict(record);
  EXPECT_EQ(to_json(record)["oversubscribed"], false);
  settle_verdict(record, "3 ranks share 2 CPU(s) on a host");
  EXPECT_EQ(to_json(record)["oversubscribed"], true);
  CollectiveRecord collective;
  settle_verdict(collective, "3 ranks share 2 CPU(s) on a host");
  EXPECT_TRUE(collective.verdict.oversubscribed);
}

TEST(RecordJson, ACollectiveRecordIsNoisyWhenAnyPointIs) {
  CollectiveRecord record;
  record.points.emplace(3);
  settle_verdict(record);
  EXPECT_FALSE(record.verdict.noisy);
  (*record.points)[1].noisy = true;
  (*record.points)[1].bytes = 1024;
  settle_verdict(record);
  EXPECT_TRUE(record.verdict.noisy);
  EXPECT_EQ(to_json(record)["noisy"], true);
  EXPECT_NE(record.verdict.noisy_because.find("at 1024 B"), std::string::npos);
}

}  // namespace
}  // namespace harness
