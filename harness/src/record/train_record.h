// A train trial's record: the parts each phase of run_train_trial fills in, rank 0's alone
// beyond the backend (other ranks return the frame). record/record_declaration.h names its fields.
#pragma once

#include <optional>
#include <string>

#include "record/record_parts.h"

namespace harness {

struct TrainRecord {
  TrialIdentity identity;
  TrialEnd end;
  std::optional<BackendRecord> backend;
  std::optional<ModelRecord> model;
  std::optional<DataRecord> data;
  std::optional<CommunicationRecord> gradient_reduction;
  std::optional<TrainingMemoryRecord> memory;
  std::optional<TrainingOutcomeRecord> training;
  std::optional<StepTimingRecord> timing;
  MeasurementVerdict verdict;  // settle_verdict (record/record_verdicts.h)
  std::optional<MachineSpeedRecord> machine_speed;
  std::optional<DetectionMetrics> detection;         // over the test rows (windows)
  std::optional<DetectionMetrics> detection_points;  // over the test points of a series
  std::optional<std::string> trace_file;             // relative to the results folder
};

}  // namespace harness
