// A replay trial's record: the captured job it replayed, the buckets it made of the job's
// gradients, and the replayed steps' times (the train record's timing part).
// record/record_declaration.h names its fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record/record_parts.h"

namespace harness {

// The job.json a replay read, as it read it.
struct ReplayedJobRecord {
  std::string file;
  std::string backend;  // the job's own
  double bucket_cap_mb = 0;  // the job's own
  long long parameters = 0;  // elements
  long long steps = 0;       // recorded steps the median step is taken from
  double step_ms = 0;        // the job's median step, as captured on its rank 0
  double forward_ms = 0;
  double backward_compute_ms = 0;  // backward start to its last gradient
  double finalize_ms = 0;
  double rest_ms = 0;
};

// The job's gradients as this configuration buckets them.
struct ReplayedBucketsRecord {
  std::vector<std::uint64_t> bytes;      // in launch order
  std::vector<double> launch_ms;         // after backward starts
  std::string wire_dtype;
};

struct ReplayRecord {
  TrialIdentity identity;
  TrialEnd end;
  std::optional<BackendRecord> backend;
  std::optional<ReplayedJobRecord> job;
  std::optional<ReplayedBucketsRecord> buckets;
  std::optional<StepTimingRecord> timing;
  std::optional<std::vector<double>> step_times_ms;  // each timed step, the slowest rank's
  MeasurementVerdict verdict;  // settle_verdict (record/record_verdicts.h)
  std::optional<MachineSpeedRecord> machine_speed;
};

}  // namespace harness
