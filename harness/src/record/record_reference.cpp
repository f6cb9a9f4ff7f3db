#include "record/record_reference.h"

#include <sstream>
#include <tuple>

namespace harness {
namespace {

constexpr RecordKinds kEvery = RecordKinds::kEvery;
constexpr RecordKinds kTrain = RecordKinds::kTrain;
constexpr RecordKinds kCollective = RecordKinds::kCollective;
const char* const kAlways = "";

// The detection metrics, the same at each level they are computed at: test rows (windows) and,
// for series, test points.
std::vector<RecordField> detection_fields(const std::string& prefix, const std::string& when,
                                          const std::string& level) {
  const RecordField metrics[] = {
      {"auroc", "number", "", kTrain, when,
       "area under the ROC curve of the test " + level + "' scores"},
      {"auprc", "number", "", kTrain, when, "area under the precision-recall curve"},
      {"best_f1", "number", "", kTrain, when, "the best F1 over all score thresholds"},
      {"best_f1_threshold", "number", "score", kTrain, when, "the score threshold giving best_f1"},
      {"threshold_percentile", "number", "%", kTrain, when,
       "the percentile of the training rows' scores used as threshold (the setting)"},
      {"threshold", "number", "score", kTrain, when,
       "that percentile: the threshold an operator without labels would set"},
      {"f1_at_threshold", "number", "", kTrain, when, "F1 at threshold"},
      {"precision_at_threshold", "number", "", kTrain, when, "precision at threshold"},
      {"recall_at_threshold", "number", "", kTrain, when, "recall at threshold"},
      {"zscore_auroc", "number", "", kTrain, when,
       "AUROC of the no-learning baseline (mean squared z-score of the test " + level + ")"},
  };
  std::vector<RecordField> fields;
  for (RecordField field : metrics) {
    field.path = prefix + "." + field.path;
    fields.push_back(field);
  }
  return fields;
}

// clang-format off
std::vector<RecordField> build_fields() {
  std::vector<RecordField> fields = {
    // --- every record -------------------------------------------------------------------
    {"record_version", "integer", "", kEvery, kAlways,
     "the record's layout; readers refuse a version newer than they know (1: the field was "
     "called schema_version)"},
    {"kind", "string", "", kEvery, kAlways, "the trial kind: train or collective"},
    {"part", "string", "", kEvery, kAlways, "the experiment part it belongs to (\"\" for a single-part file)"},
    {"key", "string", "", kEvery, kAlways,
     "the trial's identity: a hash of its kind, resolved settings, model files' contents, "
     "repetition and seed (--resume skips keys already recorded)"},
    {"point", "string", "", kEvery, kAlways, "the sweep point: the same for all its repetitions"},
    {"index", "integer", "", kEvery, kAlways, "the trial's position in the planned order, from 0"},
    {"repetition", "integer", "", kEvery, kAlways, "which repetition of its point, from 0"},
    {"seed", "integer", "", kEvery, kAlways, "the seed it ran with (the experiment's seed + repetition)"},
    {"world_size", "integer", "ranks", kEvery, kAlways, "ranks in the trial's group"},
    {"status", "string", "", kEvery, kAlways,
     "ok, failed, skipped, diverged, inconsistent or hung (docs/results.md)"},
    {"reason", "string", "", kEvery, kAlways, "why, when the status is not ok; one line"},
    {"axes", "object", "", kEvery, kAlways, "the swept settings' values for this trial"},
    {"settings", "object", "", kEvery, kAlways, "the trial's settings, defaults filled in"},
    {"model_files", "object", "", kEvery, "a setting names a model file",
     "path -> content hash of each model file the trial read (part of the key)"},
    {"wall_time_s", "number", "s", kEvery, kAlways, "the trial's wall time, setup included"},
    {"noisy", "boolean", "", kEvery, kAlways,
     "the measurement is not a plain one: cv above noise_cv_threshold, slow steps, or the "
     "quiet gate could not keep a slow spell out"},
    {"backend", "object", "", kEvery, kAlways, "the communicator that ran it"},
    {"backend.name", "string", "", kEvery, kAlways, "plugin name"},
    {"backend.version", "string", "", kEvery, kAlways, "plugin version"},
    {"backend.algorithm", "string", "", kEvery, kAlways, "the algorithm, as the plugin describes it"},
    {"backend.memory", "string", "", kEvery, kAlways,
     "communicator: the reduced buffers lie in memory the communicator provided; host: "
     "ordinary memory; mixed: some of each, with how many and their bytes"},
    {"machine_speed", "object", "", kEvery, kAlways, "the quiet-machine gate: what it saw and did"},
    {"machine_speed.gate", "string", "", kEvery, kAlways, "on, or why it is off"},
    {"machine_speed.max_slowdown", "number", "x", kEvery, kAlways, "quiet_slowdown, the setting"},
    {"machine_speed.wait_s", "number", "s", kEvery, kAlways, "quiet_wait_s, the setting"},
    {"machine_speed.measurements", "integer", "", kEvery, kAlways, "measurements taken"},
    {"machine_speed.not_quiet", "integer", "", kEvery, kAlways,
     "measurements the gate could not keep quiet (kept, and the trial noisy)"},
    {"machine_speed.retries", "integer", "", kEvery, kAlways,
     "measurements taken again because a slow spell began during them"},
    {"machine_speed.waited_s", "number", "s", kEvery, kAlways, "time spent waiting for a quiet machine"},
    {"machine_speed.slowdown", "number", "x", kEvery, kAlways,
     "the largest canary reading of a kept measurement, relative to the fastest"},

    // --- train records --------------------------------------------------------------------
    {"model", "object", "", kTrain, kAlways, "the model plugin and what it trained"},
    {"model.name", "string", "", kTrain, kAlways, "plugin name"},
    {"model.version", "string", "", kTrain, kAlways, "plugin version"},
    {"model.parameters", "integer", "elements", kTrain, kAlways, "trainable parameters"},
    {"model.objective", "object", "", kTrain, kAlways, "how the model's output became a loss and a score"},
    {"model.objective.loss", "string", "", kTrain, kAlways, "the training loss"},
    {"model.objective.score", "string", "", kTrain, kAlways, "the anomaly score"},
    {"model.buffers", "object", "", kTrain, kAlways, "the model's buffers (running statistics and the like)"},
    {"model.buffers.tensors", "integer", "", kTrain, kAlways, "buffer tensors"},
    {"model.buffers.elements", "integer", "elements", kTrain, kAlways, "their elements"},
    {"model.buffers.fp32_elements", "integer", "elements", kTrain, kAlways, "of which fp32 (the ones broadcast)"},
    {"model.buffers.kept_in_step", "string", "", kTrain, kAlways, "how the replicas' buffers are kept equal"},
    {"data", "object", "", kTrain, kAlways, "the data set as loaded"},
    {"data.description", "string", "", kTrain, kAlways, "what was loaded"},
    {"data.features", "integer", "", kTrain, kAlways, "features per row (per time step for series)"},
    {"data.window", "integer", "time steps", kTrain, kAlways, "window length (0: tabular)"},
    {"data.train_rows", "integer", "rows", kTrain, kAlways, "training rows (windows), all ranks"},
    {"data.test_rows", "integer", "rows", kTrain, kAlways, "test rows (windows)"},
    {"data.test_anomalies", "integer", "rows", kTrain, kAlways, "anomalous test rows (windows)"},
    {"gradient_reduction", "object", "", kTrain, kAlways, "how gradients were averaged"},
    {"gradient_reduction.buckets", "integer", "", kTrain, kAlways, "allreduces per step"},
    {"gradient_reduction.bucket_bytes", "array of integers", "B", kTrain, kAlways, "each bucket's size as sent"},
    {"gradient_reduction.fusion_bytes", "integer", "B", kTrain, kAlways, "the bucket cap (the setting)"},
    {"gradient_reduction.overlap", "boolean", "", kTrain, kAlways, "buckets reduced during backward"},
    {"gradient_reduction.compression", "string", "", kTrain, kAlways, "none, fp16 or bf16"},
    {"gradient_reduction.wire_dtype", "string", "", kTrain, kAlways, "the element type sent"},
    {"gradient_reduction.mpi_thread_level", "string", "", kTrain, kAlways, "the MPI thread level the job has"},
    {"lr", "object", "", kTrain, kAlways, "the learning rate used"},
    {"lr.base", "number", "", kTrain, kAlways, "optimizer.lr, one worker's"},
    {"lr.peak", "number", "", kTrain, kAlways, "after lr_rule in the world size"},
    {"lr.warmup_steps", "integer", "steps", kTrain, kAlways, "steps of the linear warm-up"},
    {"steps", "integer", "steps", kTrain, kAlways, "training steps taken"},
    {"steps_per_epoch", "integer", "steps", kTrain, kAlways, "steps in one pass over a rank's shard"},
    {"epochs_completed", "integer", "", kTrain, kAlways, "whole epochs trained"},
    {"bytes_reduced_per_step", "integer", "B", kTrain, kAlways, "gradient bytes each rank reduces per step"},
    {"train_time_s", "number", "s", kTrain, kAlways, "wall time of the training steps"},
    {"params_consistent", "boolean", "", kTrain, kAlways, "the ranks' parameters are bit-identical after training"},
    {"param_hash", "string", "", kTrain, kAlways, "hash of rank 0's parameters after training"},
    {"loss", "object", "", kTrain, kAlways, "the global loss (mean over ranks)"},
    {"loss.final", "number", "", kTrain, kAlways, "the last epoch's mean"},
    {"loss.per_epoch", "array of numbers", "", kTrain, kAlways, "each epoch's mean"},
    {"loss.per_step", "array of numbers", "", kTrain, kAlways, "each training step's"},
    {"loss.validation", "number", "", kTrain, kAlways, "mean reconstruction error of the test set's normal rows"},
    {"target", "object", "", kTrain, kAlways, "time to the target loss (nulls without target_loss)"},
    {"target.loss", "number or null", "", kTrain, kAlways, "target_loss, the setting"},
    {"target.reached", "boolean", "", kTrain, kAlways,
     "the 10-step moving mean of the global loss reached it"},
    {"target.steps", "integer or null", "steps", kTrain, kAlways, "steps until then (null: not reached)"},
    {"target.time_s", "number or null", "s", kTrain, kAlways, "training seconds until then"},
    {"timed_steps", "integer", "steps", kTrain, kAlways, "steps of the timing phase"},
    {"throughput", "object", "", kTrain, kAlways, "speed over the timing phase"},
    {"throughput.samples_per_s", "number", "samples/s", kTrain, kAlways,
     "all ranks' samples per step over the median slowest-rank step"},
    {"throughput.samples_per_s_ci95", "array of numbers", "samples/s", kTrain, kAlways,
     "its 95% interval, from the median step's"},
    {"throughput.samples_per_s_wall", "number", "samples/s", kTrain, kAlways,
     "all samples over the timing phase's wall time"},
    {"throughput.samples_per_s_per_rank", "array of numbers", "samples/s", kTrain, kAlways,
     "each rank's samples over its own median step"},
    {"step_time_ms", "object", "", kTrain, kAlways, "step times of the timing phase (slowest rank per step)"},
    {"step_time_ms.total", "number", "ms", kTrain, kAlways, "the median step"},
    {"step_time_ms.compute", "number", "ms", kTrain, kAlways, "forward and backward (packing gradients included), median, mean over ranks"},
    {"step_time_ms.exposed_comm", "number", "ms", kTrain, kAlways,
     "waiting for communication after backward ended, median, mean over ranks"},
    {"step_time_ms.comm", "number", "ms", kTrain, kAlways, "the allreduces themselves, overlapped or not"},
    {"step_time_ms.optimizer", "number", "ms", kTrain, kAlways, "the optimizer step"},
    {"step_time_ms.mean", "number", "ms", kTrain, kAlways, "the mean step"},
    {"step_time_ms.p50", "number", "ms", kTrain, kAlways, "the median step"},
    {"step_time_ms.p90", "number", "ms", kTrain, kAlways, "90th percentile"},
    {"step_time_ms.p99", "number", "ms", kTrain, kAlways, "99th percentile"},
    {"step_time_ms.ci95", "array of numbers", "ms", kTrain, kAlways, "95% interval of the median step"},
    {"step_time_ms.ci95_coverage", "number", "", kTrain, kAlways, "that interval's exact coverage"},
    {"step_time_ms.cv", "number", "", kTrain, kAlways, "coefficient of variation of the steps"},
    {"step_time_ms.per_rank_median", "array of numbers", "ms", kTrain, kAlways, "each rank's own median step"},
    {"exposed_comm_ms", "number", "ms", kTrain, kAlways, "step_time_ms.exposed_comm"},
    {"overlap_fraction", "number", "", kTrain, kAlways,
     "1 - exposed / comm: the share of communication hidden behind backward"},
    {"timing", "object", "", kTrain, kAlways, "the timing phase"},
    {"timing.steps", "integer", "steps", kTrain, kAlways, "timed steps"},
    {"timing.seconds", "number", "s", kTrain, kAlways, "their wall time"},
    {"timing.min_time_s", "number", "s", kTrain, kAlways, "min_time_s, the setting"},
    {"slow_steps", "object", "", kTrain, kAlways, "steps slower than factor x the median step"},
    {"slow_steps.timing", "integer", "steps", kTrain, kAlways, "in the timing phase"},
    {"slow_steps.training", "integer", "steps", kTrain, kAlways, "in training"},
    {"slow_steps.factor", "number", "x", kTrain, kAlways, "slow_step_factor, the setting"},
    {"stragglers", "object or null", "", kTrain, kAlways,
     "when each rank arrived at the gradient allreduce, relative to the first (null at "
     "world_size 1)"},
    {"stragglers.arrival_skew_ms", "object", "", kTrain, "world_size > 1", "last arrival minus first, per step"},
    {"stragglers.arrival_skew_ms.p50", "number", "ms", kTrain, "world_size > 1", "median"},
    {"stragglers.arrival_skew_ms.p99", "number", "ms", kTrain, "world_size > 1", "99th percentile"},
    {"stragglers.arrival_skew_ms.max", "number", "ms", kTrain, "world_size > 1", "largest"},
    {"stragglers.last_arrivals", "array of integers", "steps", kTrain, "world_size > 1",
     "per rank: the steps it arrived last"},
    {"stragglers.clock_sync", "string", "", kTrain, "world_size > 1", "how the ranks' clocks were aligned"},
    {"detection", "object", "", kTrain, kAlways, "anomaly detection on the test set"},
    {"detection_points", "object", "", kTrain, "series data",
     "the same per test point, each scored by the mean of the windows covering it"},
    {"trace_file", "string", "", kTrain, "timeline is set",
     "the Chrome trace of the first timeline_steps steps, relative to the results folder"},

    // --- collective records ---------------------------------------------------------------
    {"points", "array of objects", "", kCollective, kAlways, "one entry per message size"},
    {"points[].bytes", "integer", "B", kCollective, kAlways, "message size"},
    {"points[].count", "integer", "elements", kCollective, kAlways, "elements per message"},
    {"points[].timing", "string", "", kCollective, kAlways, "loop or per_iteration (the setting)"},
    {"points[].iters", "integer", "", kCollective, kAlways, "timed samples"},
    {"points[].calls", "integer", "", kCollective, kAlways, "allreduce calls timed in all"},
    {"points[].time_us", "number", "us", kCollective, kAlways,
     "the median sample of the slowest rank's time per call (algbw and busbw are from it)"},
    {"points[].mean_us", "number", "us", kCollective, kAlways, "the mean sample (nccl-tests' figure)"},
    {"points[].min_us", "number", "us", kCollective, kAlways, "the fastest sample"},
    {"points[].p50_us", "number", "us", kCollective, kAlways, "the median sample"},
    {"points[].p99_us", "number", "us", kCollective, kAlways, "99th percentile"},
    {"points[].ci_low_us", "number", "us", kCollective, kAlways, "95% interval of the median, low end"},
    {"points[].ci_high_us", "number", "us", kCollective, kAlways, "95% interval of the median, high end"},
    {"points[].cv", "number", "", kCollective, kAlways, "coefficient of variation of the samples"},
    {"points[].algbw_gbps", "number", "GB/s", kCollective, kAlways, "bytes / time_us"},
    {"points[].busbw_gbps", "number", "GB/s", kCollective, kAlways, "algbw x 2(n-1)/n (nccl-tests)"},
    {"points[].busbw_ci_low_gbps", "number", "GB/s", kCollective, kAlways, "busbw at ci_high_us"},
    {"points[].busbw_ci_high_gbps", "number", "GB/s", kCollective, kAlways, "busbw at ci_low_us"},
    {"points[].slowdown", "number", "x", kCollective, kAlways, "the quiet gate's canary reading for this size"},
    {"points[].noisy", "boolean", "", kCollective, kAlways, "cv above noise_cv_threshold, or not kept quiet"},
    {"points[].wrong", "integer", "elements", kCollective, kAlways,
     "elements that differ from the expected result (one checked call on deterministic data)"},
  };
  // clang-format on
  for (const auto& [prefix, when, level] :
       {std::tuple<const char*, const char*, const char*>{"detection", kAlways, "rows (windows)"},
        {"detection_points", "series data", "points"}}) {
    const auto more = detection_fields(prefix, when, level);
    fields.insert(fields.end(), more.begin(), more.end());
  }
  return fields;
}

const std::vector<RecordField>& fields() {
  static const std::vector<RecordField> all = build_fields();
  return all;
}

void write_table(std::ostringstream& out, RecordKinds section) {
  out << "| field | type | unit | present | meaning |\n|---|---|---|---|---|\n";
  for (const auto& field : fields()) {
    if (field.kinds != section) continue;
    out << "| `" << field.path << "` | " << field.type << " | " << field.unit << " | "
        << (field.when.empty() ? "always" : "when " + field.when) << " | " << field.meaning
        << " |\n";
  }
}

}  // namespace

const std::vector<RecordField>& record_fields() { return fields(); }

std::string record_reference_markdown() {
  std::ostringstream out;
  out << "## Every record (record_version " << kRecordVersion << ")\n\n";
  write_table(out, RecordKinds::kEvery);
  out << "\n## Train records (kind \"train\")\n\n";
  write_table(out, RecordKinds::kTrain);
  out << "\n## Collective records (kind \"collective\")\n\n";
  write_table(out, RecordKinds::kCollective);
  return out.str();
}

}  // namespace harness
