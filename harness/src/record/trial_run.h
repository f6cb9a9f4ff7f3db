// A finished trial as the sinks, the console and the planners read it (google/benchmark hands
// its reporters a typed Run): read once, when rank 0's results store takes the record — the
// trial's own, or one read back from trials.jsonl by --resume — into the record parts
// (record/record_parts.h) they use. `json` is the record itself, for the outputs that carry
// every field as it is (trials.jsonl, summary.csv).
//
// Records of earlier layouts lack some fields: a field that is missing, null or of another
// type reads as unset (or zero), never as an error. Only the status must be one this harness
// knows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/collective_point.h"
#include "record/record_parts.h"

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
  std::string dtype;  // settings.dtype and settings.op, for the tables
  std::string op;
  std::vector<CollectivePoint> points;
};

struct TrialRun {
  TrialIdentity identity;
  TrialEnd end;
  bool noisy = false;
  std::optional<BackendRecord> backend;
  std::optional<MachineSpeedRecord> machine_speed;
  std::optional<TrainFigures> train;            // a record with training figures
  std::optional<CollectiveFigures> collective;  // a record with points
  Json json;

  // Whether its numbers stand: ok, or finished with drifted replicas (rank 0's figures).
  bool measured() const {
    return end.status == TrialStatus::kOk || end.status == TrialStatus::kInconsistent;
  }
};

// InputError when the record is no JSON object or its status is missing or unknown.
TrialRun read_trial_run(Json record);

// Parts read back on their own (the points of a collective record, as the tests use them).
CollectivePoint read_collective_point(const Json& point);

}  // namespace harness
