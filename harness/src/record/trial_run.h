// A finished trial as the sinks, the console and the planners read it (google/benchmark hands
// its reporters a typed Run): made once, when rank 0's results store takes the record — the
// trial's own, typed, as its kind handed it over, or one read back from trials.jsonl by
// --resume, brought to the newest layout and read by record/record_reader.h. `json` is the
// record itself, for the outputs that carry every field as it is (trials.jsonl, summary.csv).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/collective_point.h"
#include "record/record_parts.h"
#include "record/trial_record.h"

namespace harness {

// What a train record says about training and speed.
struct TrainFigures {
  bool timed = false;                          // the timing phase ran (the record has throughput)
  std::optional<ThroughputRecord> throughput;  // unset: no step was timed
  std::optional<StepTimesRecord> step_time_ms;
  long long steps = 0;
  std::optional<double> final_loss;    // the last epoch's
  TargetRecord target;                 // steps set when the target loss was reached
  std::optional<double> auroc;         // detection over test rows (windows)
  std::optional<double> points_auroc;  // detection over test points (a series)
};

// What a collective record measured.
struct CollectiveFigures {
  std::string dtype;  // settings.dtype, op and timing, for the tables
  std::string op;
  std::string timing;
  std::vector<CollectivePoint> points;
};

// What a replay record measured: its step, and the captured job's own.
struct ReplayFigures {
  StepTimesRecord step_time_ms;
  double job_step_ms = 0;
};

struct TrialRun {
  TrialIdentity identity;
  TrialEnd end;
  MeasurementVerdict verdict;
  std::optional<BackendRecord> backend;
  std::optional<MachineSpeedRecord> machine_speed;
  std::optional<TrainFigures> train;            // a record with training figures
  std::optional<CollectiveFigures> collective;  // a record with points
  std::optional<ReplayFigures> replay;          // a replay with timed steps
  Json json;

  bool measured() const { return is_measured(end.status); }
};

// InputError when the record is no JSON object or its status is missing or unknown. The
// record is in the newest layout (record/record_upgrade.h).
TrialRun read_trial_run(Json record);

// A trial's own result, as its kind handed it over: nothing is parsed back.
TrialRun trial_run_of(TrialResult result);

}  // namespace harness
