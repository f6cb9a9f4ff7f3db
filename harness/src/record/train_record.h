// A train trial's record: the parts each phase of run_train_trial fills in, rank 0's alone
// beyond the backend (other ranks return the frame). record/record_json.h writes it.
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
  std::optional<TrainingOutcomeRecord> training;
  std::optional<StepTimingRecord> timing;
  std::optional<MachineSpeedRecord> machine_speed;
  std::optional<DetectionRecord> detection;
  std::optional<std::string> trace_file;  // relative to the results folder

  // The one definition of a noisy train trial: its timing is (StepTimingRecord::noisy), or the
  // quiet gate could not keep a slow spell out of it.
  bool noisy() const;
};

}  // namespace harness
