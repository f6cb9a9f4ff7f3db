// The typed records and their one serialiser: every field a fully filled record writes is in the
// results reference for its kind, and "noisy" follows the one definition in
// record/record_noise.cpp.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "record/record_json.h"
#include "record/record_reference.h"

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
  record.training.emplace();
  record.timing.emplace();
  StepTimingRecord& timing = *record.timing;
  timing.throughput.emplace();
  timing.step_time_ms.emplace();
  timing.min_time_s = 1;
  timing.overlap_fraction = 0.5;
  timing.slow_steps.emplace();
  timing.stragglers.emplace();
  record.machine_speed.emplace();
  record.machine_speed->slowdown = 1.0;
  record.detection.emplace();
  record.detection->validation_loss = 0.1;
  record.detection->points.emplace();
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
    if (field.kinds == RecordKinds::kEvery || field.kinds == kind) paths.insert(field.path);
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

TEST(RecordJson, TheRecordVersionAndFrameComeFirst) {
  const Json frame = to_json(TrialIdentity{}, TrialEnd{TrialStatus::kFailed, "why", 1.5});
  ASSERT_TRUE(frame.is_object());
  EXPECT_EQ(frame.items().begin().key(), "record_version");
  EXPECT_EQ(frame["record_version"], kRecordVersion);
  EXPECT_EQ(frame["status"], "failed");
  EXPECT_EQ(frame["reason"], "why");
  EXPECT_FALSE(frame.contains("noisy"));
}

TEST(RecordJson, NoisyIsTheTimingSpreadAStallOrASlowSpell) {
  TrainRecord record = filled_train_record();
  record.timing->noise_cv_threshold = 0.3;
  record.timing->step_time_ms->cv = 0.1;
  EXPECT_FALSE(record.noisy());
  EXPECT_EQ(to_json(record)["noisy"], false);

  record.timing->step_time_ms->cv = 0.4;
  EXPECT_TRUE(record.noisy());
  EXPECT_EQ(to_json(record)["noisy"], true);

  record.timing->step_time_ms->cv = 0.1;
  record.timing->slow_steps->training = 1;
  EXPECT_TRUE(record.noisy());

  record.timing->slow_steps->training = 0;
  record.machine_speed->last_quiet = false;
  EXPECT_TRUE(record.noisy());
}

TEST(RecordJson, ACollectiveRecordIsNoisyWhenAnyPointIs) {
  CollectiveRecord record;
  record.points.emplace(3);
  EXPECT_FALSE(record.noisy());
  (*record.points)[1].noisy = true;
  EXPECT_TRUE(record.noisy());
  EXPECT_EQ(to_json(record)["noisy"], true);
}

}  // namespace
}  // namespace harness
