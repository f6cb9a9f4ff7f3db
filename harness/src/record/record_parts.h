// The parts a trial record is made of, as the phases that measure them fill them in (as
// google/benchmark's Run is filled by the runner and read by every reporter). Plain values: no
// JSON here. record/record_declaration.h names the field each member becomes, once; the
// writer, the reader, the reference and the JSON Schema follow from it. Settings are not
// copied into parts: the record carries the trial's settings whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/trial_status.h"

namespace harness {

// Who the trial is: its place in the sweep and what it ran with (spec/trial.h), set before it
// starts.
struct TrialIdentity {
  std::string kind;
  std::string part;
  std::string key;
  std::string point;
  int index = 0;
  int repetition = 0;
  std::uint64_t seed = 0;
  int world_size = 1;
  Json axes = Json::object();      // the swept settings' values, as the experiment wrote them
  Json settings = Json::object();  // the resolved settings, as validated
  Json model_files;  // path -> content hash; null when the trial reads none
};

// How it ended and how long it took.
struct TrialEnd {
  TrialStatus status = TrialStatus::kOk;
  std::string reason;  // one line
  double wall_time_s = 0;
};

// A record of the frame alone: a trial that ended before its kind could say anything.
struct FrameRecord {
  TrialIdentity identity;
  TrialEnd end;
};

// What the harness concludes about a measurement: decided once (record/record_verdicts.cpp) and
// written as fields, so that every reader renders the same verdict.
struct MeasurementVerdict {
  bool noisy = false;
  std::string noisy_because;    // "" unless noisy: each reason, "; "-separated
  bool oversubscribed = false;  // the group had more ranks than CPUs on a host
};

// The communicator that ran the trial (trial/backend_join.h).
struct BackendRecord {
  std::string name;
  std::string version;
  std::string algorithm;
  std::optional<std::string> memory;  // "communicator" or "host", once the buffers are placed
  std::vector<std::string> levels;    // a composed backend's levels, innermost first
  std::optional<std::string> within_hosts;  // a composed backend: its passes within a host
};

// The quiet-machine gate's account of the trial (trial/quiet_gate.h).
struct MachineSpeedRecord {
  std::string gate;  // "on", or "off: " and why
  long long measurements = 0;
  long long not_quiet = 0;
  long long retries = 0;
  double waited_s = 0;
  std::optional<double> slowdown;  // the largest kept canary reading; unset with the gate off
  // Not a field: what the noisy verdict reads. The timing phase's measurement was kept quiet.
  bool last_quiet = true;
};

// One thread's memcpy around a collective trial's messages (collective/memcpy_bound.h).
struct MemcpyBoundRecord {
  long long bytes = 0;
  double before_gbps = 0;
  double after_gbps = 0;
};

// --- train records -----------------------------------------------------------------------

struct ModelObjectiveRecord {
  std::string loss;
  std::string score;
};

struct ModelBuffersRecord {
  std::size_t tensors = 0;
  std::size_t elements = 0;
  std::size_t fp32_elements = 0;
  std::string kept_in_step;
};

struct ModelRecord {
  std::string name;
  std::string version;
  long long parameters = 0;
  ModelObjectiveRecord objective;
  std::optional<ModelBuffersRecord> buffers;  // once rank 0's state is broadcast
};

struct DataRecord {
  std::string description;
  long long features = 0;
  long long window = 0;
  long long train_rows = 0;
  long long test_rows = 0;
  long long test_anomalies = 0;
};

// How the gradients were averaged (train/gradient_reducer.h).
struct CommunicationRecord {
  std::size_t buckets = 0;
  std::vector<std::size_t> bucket_bytes;
  bool overlap = false;
  std::string compression;
  std::string wire_dtype;
  std::string mpi_thread_level;
};

// What one rank holds for training (settings strategy), in bytes.
struct TrainingMemoryRecord {
  std::size_t parameter_bytes = 0;
  std::size_t gradient_bytes = 0;
  std::size_t optimizer_state_bytes = 0;
};

struct LearningRateRecord {
  double peak = 0;
  long long warmup_steps = 0;
};

// Time to the target loss (the setting target_loss).
struct TargetRecord {
  std::optional<long long> steps;
  std::optional<double> time_s;
  bool reached() const { return steps.has_value(); }
};

// What training did (train/train_loop.h), written by rank 0.
struct TrainingOutcomeRecord {
  LearningRateRecord lr;
  long long steps = 0;
  long long steps_per_epoch = 0;
  std::vector<double> epoch_losses;
  std::vector<double> step_losses;
  std::optional<double> validation_loss;  // unset without normal test rows
  std::uint64_t bytes_reduced_per_step = 0;
  double train_time_s = 0;
  bool params_consistent = true;
  std::string param_hash;
  TargetRecord target;
};

struct ThroughputRecord {
  double samples_per_s = 0;
  double ci95_low = 0;
  double ci95_high = 0;
  double samples_per_s_wall = 0;
  std::vector<double> samples_per_s_per_rank;
};

// Milliseconds; the median slowest-rank step and the mean over ranks of each rank's medians.
struct StepTimesRecord {
  double compute = 0;
  double exposed_comm = 0;
  double comm = 0;
  double optimizer = 0;
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double ci95_low = 0;
  double ci95_high = 0;
  double ci95_coverage = 0;
  double cv = 0;
  std::vector<double> per_rank_median;
};

struct SlowStepsRecord {
  std::size_t timing = 0;
  std::size_t training = 0;
};

struct StragglersRecord {
  double skew_p50_ms = 0;
  double skew_p99_ms = 0;
  double skew_max_ms = 0;
  std::vector<int> last_arrivals;  // per rank: the steps it arrived last
  std::string clock_sync;
};

// The timing phase (train/step_timing.h). Without timed steps only `steps` and `seconds` (0)
// are set: the trial failed or diverged before it.
struct StepTimingRecord {
  long long steps = 0;
  double seconds = 0;
  std::optional<ThroughputRecord> throughput;
  std::optional<StepTimesRecord> step_time_ms;
  std::optional<double> overlap_fraction;  // unset when no communication was timed
  std::optional<SlowStepsRecord> slow_steps;
  std::optional<StragglersRecord> stragglers;  // unset at world size 1
  double noise_cv_threshold = 0;  // not a field: what the noisy verdict compares cv with
};

// One level of detection metrics (train/evaluation.h); unset values are undefined there (a
// test set with one class has no AUROC).
struct DetectionMetrics {
  std::optional<double> auroc;
  std::optional<double> auprc;
  std::optional<double> best_f1;
  std::optional<double> best_f1_threshold;
  double threshold = 0;
  double f1_at_threshold = 0;
  double precision_at_threshold = 0;
  double recall_at_threshold = 0;
  std::optional<double> zscore_auroc;
};

}  // namespace harness
