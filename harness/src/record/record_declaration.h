// Every field of a trial record, named once: its key, unit, presence and meaning, bound to the
// member that holds it (record/record_field.h says what a visitor does). The JSON writer and
// reader, the results reference (harness --record-fields) and the JSON Schema (harness
// --record-schema) all walk these declarations; a field is added, renamed or documented here
// alone. The order here is the order of the keys in a record.
#pragma once

#include "record/collective_record.h"
#include "record/record_field.h"
#include "record/record_version.h"
#include "record/replay_record.h"
#include "record/train_record.h"

namespace harness {

// --- every record ------------------------------------------------------------------------

// Who the trial is and how it ended: the frame every record opens with, read as the trial's
// identity by --resume and every tool.
template <typename V, typename Id, typename End>
void visit_frame(V& v, Id& id, End& end) {
  v.derived([] { return kRecordVersion; },
            {"record_version", "", "the record's layout; readers refuse a version newer than they know"});
  v.field(id.kind, {"kind", "", "the trial kind: train, collective or replay"});
  v.field(id.part, {"part", "", "the experiment part it belongs to (\"\" for a single-part file)"});
  v.field(id.key, {"key", "", "the trial's identity: a hash of its kind, resolved settings, model "
                              "files' contents, repetition and seed (--resume skips keys already "
                              "recorded)"});
  v.field(id.point, {"point", "", "the sweep point: the same for all its repetitions"});
  v.field(id.index, {"index", "", "the trial's position in the planned order, from 0"});
  v.field(id.repetition, {"repetition", "", "which repetition of its point, from 0"});
  v.field(id.seed, {"seed", "", "the seed it ran with (the experiment's seed + repetition)"});
  v.field(id.world_size, {"world_size", "ranks", "ranks in the trial's group"});
  v.field(end.status, {"status", "", "ok, failed, skipped, diverged, inconsistent or hung (docs/results.md)"});
  v.derived([&end] { return is_measured(end.status); },
            {"measured", "", "its figures stand: the status is ok or inconsistent"});
  v.field(end.reason, {"reason", "", "why, when the status is not ok; one line"});
  v.field(id.axes, {"axes", "", "the swept settings' values for this trial"});
  v.field(id.settings, {"settings", "", "the trial's settings, defaults filled in"});
  v.field(id.model_files, {"model_files", "", "path -> content hash of each model file the trial "
                                              "read (part of the key)",
                           kWhen, "a setting names a model file"});
}

// Last in every record, so that the line ends with what the whole trial cost.
template <typename V, typename End>
void visit_wall_time(V& v, End& end) {
  v.field(end.wall_time_s, {"wall_time_s", "s", "the trial's wall time, setup included"});
}

template <typename V, typename Verdict>
IfPart<Verdict, MeasurementVerdict> visit(V& v, Verdict& verdict) {
  v.field(verdict.noisy, {"noisy", "", "the measurement is not a plain one (noisy_because says why)"});
  v.field(verdict.noisy_because,
          {"noisy_because", "", "each reason it is noisy: cv above noise_cv_threshold, slow steps, "
                                "or a slow spell the quiet gate could not keep out",
           kWhen, "noisy"});
  v.field(verdict.oversubscribed,
          {"oversubscribed", "", "the trial's group had more ranks than CPUs on a host (the CPUs "
                                 "its ranks may run on together): its timings measure how the "
                                 "scheduler shares the CPUs, and the report ranks none of them"});
}

template <typename V, typename Backend>
IfPart<Backend, BackendRecord> visit(V& v, Backend& b) {
  v.field(b.name, {"name", "", "plugin name"});
  v.field(b.version, {"version", "", "plugin version"});
  v.field(b.algorithm, {"algorithm", "", "the algorithm, as the plugin describes it"});
  v.field(b.memory, {"memory", "", "communicator: the reduced buffers lie in memory the "
                                   "communicator provided; host: ordinary memory; mixed: some of "
                                   "each, with how many and their bytes",
                     kWhen, "the buffers were placed"});
  v.field(b.levels, {"levels", "", "a backend composed of plugins: each level's label, within "
                                   "hosts first (\"shm\", \"gloo:ring\")",
                     kWhen, "the backend is composed of plugins"});
  v.field(b.within_hosts,
          {"within_hosts", "", "a backend composed of plugins: how its level within hosts "
                               "passes an allreduce's bytes, \"reduce_scatter+allgather\" (each "
                               "byte crosses a host's memory once each way) or \"allreduce\" "
                               "(two allreduces of the whole buffer, where the level offers no "
                               "reduce_scatter)",
           kWhen, "the backend is composed of plugins"});
}

template <typename V, typename Speed>
IfPart<Speed, MachineSpeedRecord> visit(V& v, Speed& m) {
  v.field(m.gate, {"gate", "", "on, or why it is off (settings quiet_slowdown and quiet_wait_s)"});
  v.field(m.measurements, {"measurements", "", "measurements taken"});
  v.field(m.not_quiet, {"not_quiet", "", "measurements the gate could not keep quiet (kept, and "
                                         "the trial noisy)"});
  v.field(m.retries, {"retries", "", "measurements taken again because a slow spell began during them"});
  v.field(m.waited_s, {"waited_s", "s", "time spent waiting for a quiet machine"});
  v.field(m.slowdown, {"slowdown", "x", "the largest canary reading of a kept measurement, "
                                        "relative to the fastest", kNullable});
}

template <typename V, typename Bound>
IfPart<Bound, MemcpyBoundRecord> visit(V& v, Bound& m) {
  v.field(m.bytes, {"bytes", "B", "the size copied"});
  v.field(m.before_gbps, {"before_gbps", "GB/s", "the best of 10 copies, just before the first message"});
  v.field(m.after_gbps, {"after_gbps", "GB/s", "the best of 10 copies, just after the last message"});
}

// --- train records -----------------------------------------------------------------------

template <typename V, typename Model>
IfPart<Model, ModelRecord> visit(V& v, Model& m) {
  v.field(m.name, {"name", "", "plugin name"});
  v.field(m.version, {"version", "", "plugin version"});
  v.field(m.parameters, {"parameters", "elements", "trainable parameters"});
  v.group({"objective", "", "how the model's output became a loss and a score"}, [&] {
    v.field(m.objective.loss, {"loss", "", "the training loss"});
    v.field(m.objective.score, {"score", "", "the anomaly score"});
  });
  v.object(m.buffers, {"buffers", "", "the model's buffers (running statistics and the like)"});
}

template <typename V, typename Buffers>
IfPart<Buffers, ModelBuffersRecord> visit(V& v, Buffers& b) {
  v.field(b.tensors, {"tensors", "", "buffer tensors"});
  v.field(b.elements, {"elements", "elements", "their elements"});
  v.field(b.fp32_elements, {"fp32_elements", "elements", "of which fp32 (the ones broadcast)"});
  v.field(b.kept_in_step, {"kept_in_step", "", "how the replicas' buffers are kept equal"});
}

template <typename V, typename Data>
IfPart<Data, DataRecord> visit(V& v, Data& d) {
  v.field(d.description, {"description", "", "what was loaded"});
  v.field(d.features, {"features", "", "features per row (per time step for series)"});
  v.field(d.window, {"window", "time steps", "window length (0: tabular)"});
  v.field(d.train_rows, {"train_rows", "rows", "training rows (windows), all ranks"});
  v.field(d.test_rows, {"test_rows", "rows", "test rows (windows)"});
  v.field(d.test_anomalies, {"test_anomalies", "rows", "anomalous test rows (windows)"});
}

template <typename V, typename Reduction>
IfPart<Reduction, CommunicationRecord> visit(V& v, Reduction& c) {
  v.field(c.buckets, {"buckets", "", "buckets per step: one allreduce each (strategy ddp), or "
                                      "one reduce-scatter and one allgather each (sharded)"});
  v.field(c.bucket_bytes, {"bucket_bytes", "B", "each bucket's size as sent (settings fusion_bytes, overlap)"});
  v.field(c.overlap, {"overlap", "", "buckets reduced during backward"});
  v.field(c.compression, {"compression", "", "none, fp16 or bf16"});
  v.field(c.wire_dtype, {"wire_dtype", "", "the element type sent"});
  v.field(c.mpi_thread_level, {"mpi_thread_level", "", "the MPI thread level the job has"});
}

template <typename V, typename Memory>
IfPart<Memory, TrainingMemoryRecord> visit(V& v, Memory& m) {
  v.field(m.parameter_bytes, {"parameter_bytes", "B", "the parameters: the whole model, and "
                                                      "under sharded the fp32 master shard too"});
  v.field(m.gradient_bytes, {"gradient_bytes", "B", "gradient buffers kept between steps: the "
                                                    "buckets, their compressed copies, the "
                                                    "model's own .grad where separate, and "
                                                    "under sharded the averaged shard"});
  v.field(m.optimizer_state_bytes, {"optimizer_state_bytes", "B",
                                    "the optimizer's state (Adam's moments, SGD's momentum): "
                                    "the whole model's under ddp, the shard's under sharded"});
}

template <typename V, typename Rate>
IfPart<Rate, LearningRateRecord> visit(V& v, Rate& lr) {
  v.field(lr.peak, {"peak", "", "optimizer.lr after lr_rule in the world size"});
  v.field(lr.warmup_steps, {"warmup_steps", "steps", "steps of the linear warm-up"});
}

template <typename V, typename Target>
IfPart<Target, TargetRecord> visit(V& v, Target& t) {
  v.derived([&t] { return t.reached(); },
            {"reached", "", "the 10-step moving mean of the global loss reached target_loss"});
  v.field(t.steps, {"steps", "steps", "steps until then (null: not reached)", kNullable});
  v.field(t.time_s, {"time_s", "s", "training seconds until then", kNullable});
}

template <typename V, typename Training>
IfPart<Training, TrainingOutcomeRecord> visit(V& v, Training& t) {
  v.object(t.lr, {"lr", "", "the learning rate used"});
  v.field(t.steps, {"steps", "steps", "training steps taken"});
  v.field(t.steps_per_epoch, {"steps_per_epoch", "steps", "steps in one pass over a rank's shard"});
  v.derived([&t] { return static_cast<long long>(t.epoch_losses.size()); },
            {"epochs_completed", "", "whole epochs trained"});
  v.field(t.bytes_reduced_per_step,
          {"bytes_reduced_per_step", "B", "gradient bytes each rank reduces per step"});
  v.field(t.train_time_s, {"train_time_s", "s", "wall time of the training steps"});
  v.field(t.params_consistent, {"params_consistent", "", "the ranks' parameters are bit-identical after training"});
  v.field(t.param_hash, {"param_hash", "", "hash of rank 0's parameters after training"});
  v.group({"loss", "", "the global loss (mean over ranks)"}, [&] {
    v.derived([&t] { return t.epoch_losses.empty() ? std::optional<double>() : t.epoch_losses.back(); },
              {"final", "", "the last epoch's mean", kNullable});
    v.field(t.epoch_losses, {"per_epoch", "", "each epoch's mean"});
    v.field(t.step_losses, {"per_step", "", "each training step's"});
    v.field(t.validation_loss, {"validation", "", "mean reconstruction error of the test set's "
                                                  "normal rows (null without any)", kNullable});
  });
  v.object(t.target, {"target", "", "time to target_loss (nulls without one)"});
}

template <typename V, typename Throughput>
IfPart<Throughput, ThroughputRecord> visit(V& v, Throughput& t) {
  v.field(t.samples_per_s, {"samples_per_s", "samples/s", "all ranks' samples per step over the median slowest-rank step"});
  v.interval(t.ci95_low, t.ci95_high, {"samples_per_s_ci95", "samples/s", "its 95% interval, from the median step's"});
  v.field(t.samples_per_s_wall, {"samples_per_s_wall", "samples/s", "all samples over the timing phase's wall time"});
  v.field(t.samples_per_s_per_rank, {"samples_per_s_per_rank", "samples/s", "each rank's samples over its own median step"});
}

template <typename V, typename Times>
IfPart<Times, StepTimesRecord> visit(V& v, Times& s) {
  v.field(s.compute, {"compute", "ms", "forward and backward (packing gradients included), median, mean over ranks"});
  v.field(s.exposed_comm, {"exposed_comm", "ms", "waiting for communication after backward ended, median, mean over ranks"});
  v.field(s.comm, {"comm", "ms", "the allreduces themselves, overlapped or not"});
  v.field(s.optimizer, {"optimizer", "ms", "the optimizer step"});
  v.field(s.mean, {"mean", "ms", "the mean step"});
  v.field(s.p50, {"p50", "ms", "the median step: the figure throughput is from"});
  v.field(s.p90, {"p90", "ms", "90th percentile"});
  v.field(s.p99, {"p99", "ms", "99th percentile"});
  v.interval(s.ci95_low, s.ci95_high, {"ci95", "ms", "95% interval of the median step"});
  v.field(s.ci95_coverage, {"ci95_coverage", "", "that interval's exact coverage"});
  v.field(s.cv, {"cv", "", "coefficient of variation of the steps"});
  v.field(s.per_rank_median, {"per_rank_median", "ms", "each rank's own median step"});
}

template <typename V, typename Slow>
IfPart<Slow, SlowStepsRecord> visit(V& v, Slow& s) {
  v.field(s.timing, {"timing", "steps", "in the timing phase"});
  v.field(s.training, {"training", "steps", "in training"});
}

template <typename V, typename Stragglers>
IfPart<Stragglers, StragglersRecord> visit(V& v, Stragglers& s) {
  v.group({"arrival_skew_ms", "", "last arrival minus first, per step"}, [&] {
    v.field(s.skew_p50_ms, {"p50", "ms", "median"});
    v.field(s.skew_p99_ms, {"p99", "ms", "99th percentile"});
    v.field(s.skew_max_ms, {"max", "ms", "largest"});
  });
  v.field(s.last_arrivals, {"last_arrivals", "steps", "per rank: the steps it arrived last"});
  v.field(s.clock_sync, {"clock_sync", "", "how the ranks' clocks were aligned"});
}

template <typename V, typename Timing>
IfPart<Timing, StepTimingRecord> visit(V& v, Timing& t) {
  v.object(t.throughput, {"throughput", "", "speed over the timing phase (null: no step was timed, or a replay: it has no samples)", kNullable});
  v.object(t.step_time_ms, {"step_time_ms", "", "step times of the timing phase (slowest rank per "
                                                "step; null: no step was timed)", kNullable});
  v.field(t.overlap_fraction, {"overlap_fraction", "", "1 - exposed / comm: the share of "
                                                       "communication hidden behind backward",
                               kNullable});
  v.group({"timing", "", "the timing phase (setting min_time_s)"}, [&] {
    v.field(t.steps, {"steps", "steps", "timed steps"});
    v.field(t.seconds, {"seconds", "s", "their wall time"});
  });
  v.object(t.slow_steps, {"slow_steps", "", "steps slower than slow_step_factor x the median step",
                          kWhen, "steps were timed"});
  v.object(t.stragglers, {"stragglers", "", "when each rank arrived at the gradient allreduce, "
                                            "relative to the first",
                          kWhen, "steps were timed at world_size > 1"});
}

template <typename V, typename Metrics>
IfPart<Metrics, DetectionMetrics> visit(V& v, Metrics& m) {
  v.field(m.auroc, {"auroc", "", "area under the ROC curve of the scores", kNullable});
  v.field(m.auprc, {"auprc", "", "area under the precision-recall curve", kNullable});
  v.field(m.best_f1, {"best_f1", "", "the best F1 over all score thresholds", kNullable});
  v.field(m.best_f1_threshold, {"best_f1_threshold", "score", "the score threshold giving best_f1", kNullable});
  v.field(m.threshold, {"threshold", "score", "the threshold_percentile-th percentile of the "
                                              "training rows' scores: what an operator without "
                                              "labels would set"});
  v.field(m.f1_at_threshold, {"f1_at_threshold", "", "F1 at threshold"});
  v.field(m.precision_at_threshold, {"precision_at_threshold", "", "precision at threshold"});
  v.field(m.recall_at_threshold, {"recall_at_threshold", "", "recall at threshold"});
  v.field(m.zscore_auroc, {"zscore_auroc", "", "AUROC of the no-learning baseline (mean squared "
                                               "z-score)", kNullable});
}

template <typename V, typename Record>
IfPart<Record, TrainRecord> visit(V& v, Record& r) {
  visit_frame(v, r.identity, r.end);
  v.object(r.backend, {"backend", "", "the communicator that ran it"});
  v.object(r.model, {"model", "", "the model plugin and what it trained"});
  v.object(r.data, {"data", "", "the data set as loaded"});
  v.object(r.gradient_reduction, {"gradient_reduction", "", "how gradients were averaged"});
  v.object(r.memory, {"memory", "", "what rank 0 held for training, by kind (settings strategy)"});
  v.inline_part(r.training, [&](auto& training) { visit(v, training); });
  v.inline_part(r.timing, [&](auto& timing) { visit(v, timing); });
  visit(v, r.verdict);
  v.object(r.machine_speed, {"machine_speed", "", "the quiet-machine gate: what it saw and did"});
  v.object(r.detection, {"detection", "", "anomaly detection on the test set's rows (windows)"});
  v.object(r.detection_points, {"detection_points", "", "the same per test point, each scored "
                                                        "by the mean of the windows covering it",
                                kWhen, "series data"});
  v.field(r.trace_file, {"trace_file", "", "the Chrome trace of the first timeline_steps steps, "
                                           "relative to the results folder",
                         kWhen, "timeline is set"});
  visit_wall_time(v, r.end);
}

// --- collective records ------------------------------------------------------------------

template <typename V, typename Point>
IfPart<Point, CollectivePoint> visit(V& v, Point& p) {
  v.field(p.bytes, {"bytes", "B", "message size"});
  v.field(p.count, {"count", "elements", "elements per message"});
  v.field(p.iters, {"iters", "", "timed samples"});
  v.field(p.calls, {"calls", "", "calls timed in all"});
  v.field(p.mean_us, {"mean_us", "us", "the mean sample of the slowest rank's time per call (nccl-tests' figure)"});
  v.field(p.min_us, {"min_us", "us", "the fastest sample"});
  v.field(p.p50_us, {"p50_us", "us", "the median sample: algbw and busbw are from it"});
  v.field(p.p99_us, {"p99_us", "us", "99th percentile"});
  v.field(p.ci_low_us, {"ci_low_us", "us", "95% interval of the median, low end"});
  v.field(p.ci_high_us, {"ci_high_us", "us", "95% interval of the median, high end"});
  v.field(p.cv, {"cv", "", "coefficient of variation of the samples"});
  v.field(p.algbw_gbps, {"algbw_gbps", "GB/s", "bytes / p50_us"});
  v.field(p.busbw_gbps, {"busbw_gbps", "GB/s", "algbw x 2(n-1)/n (nccl-tests)"});
  v.field(p.busbw_ci_low_gbps, {"busbw_ci_low_gbps", "GB/s", "busbw at ci_high_us"});
  v.field(p.busbw_ci_high_gbps, {"busbw_ci_high_gbps", "GB/s", "busbw at ci_low_us"});
  v.field(p.slowdown, {"slowdown", "x", "the quiet gate's canary reading for this size (null: gate off)", kNullable});
  v.field(p.noisy, {"noisy", "", "cv above noise_cv_threshold, or not kept quiet"});
  v.field(p.wrong, {"wrong", "elements", "elements that differ from the expected result (one "
                                         "checked call on deterministic data; null: unchecked)",
                    kNullable});
}

template <typename V, typename Record>
IfPart<Record, CollectiveRecord> visit(V& v, Record& r) {
  visit_frame(v, r.identity, r.end);
  v.object(r.backend, {"backend", "", "the communicator that ran it"});
  v.objects(r.points, {"points", "", "one entry per message size"});
  visit(v, r.verdict);
  v.object(r.machine_speed, {"machine_speed", "", "the quiet-machine gate: what it saw and did"});
  v.object(r.memcpy, {"memcpy", "", "one thread's memcpy on rank 0 of this host, just before and "
                                    "after the messages: the bound busbw from its size on is "
                                    "read against",
                      kWhen, "the largest message is 64 MB or more"});
  visit_wall_time(v, r.end);
}

// --- replay records ----------------------------------------------------------------------

template <typename V, typename Job>
IfPart<Job, ReplayedJobRecord> visit(V& v, Job& j) {
  v.field(j.file, {"file", "", "the job.json replayed (settings job)"});
  v.field(j.backend, {"backend", "", "the job's own process-group backend"});
  v.field(j.bucket_cap_mb, {"bucket_cap_mb", "MB", "the job's own bucket_cap_mb"});
  v.field(j.parameters, {"parameters", "elements", "the job's model parameters"});
  v.field(j.steps, {"steps", "steps", "steps the capture recorded: the replayed step is their median"});
  v.field(j.step_ms, {"step_ms", "ms", "the job's median step as captured (rank 0): what the "
                                       "replay of the job's own configuration should predict"});
  v.field(j.forward_ms, {"forward_ms", "ms", "its median forward, replayed as computation"});
  v.field(j.backward_compute_ms, {"backward_compute_ms", "ms", "backward start to its last "
                                                               "gradient, replayed as computation"});
  v.field(j.finalize_ms, {"finalize_ms", "ms", "backward after its last allreduce was done (DDP "
                                               "copying the buckets into the gradients), "
                                               "replayed as computation"});
  v.field(j.rest_ms, {"rest_ms", "ms", "the rest of the step (optimizer, data), replayed as computation"});
}

template <typename V, typename Buckets>
IfPart<Buckets, ReplayedBucketsRecord> visit(V& v, Buckets& b) {
  v.field(b.bytes, {"bytes", "B", "each bucket's size, in launch order (settings bucket_cap_mb)"});
  v.field(b.launch_ms, {"launch_ms", "ms", "when each is launched, after backward starts: its "
                                            "last gradient's ready time in the job"});
  v.field(b.wire_dtype, {"wire_dtype", "", "the element types sent (settings compression, or "
                                          "the gradients' own: \"fp32\", \"fp32, fp16\"; "
                                          "\"none\" without a bucket)"});
}

template <typename V, typename Record>
IfPart<Record, ReplayRecord> visit(V& v, Record& r) {
  visit_frame(v, r.identity, r.end);
  v.object(r.backend, {"backend", "", "the communicator that ran it"});
  v.object(r.job, {"job", "", "the captured job replayed"});
  v.object(r.buckets, {"buckets", "", "the job's gradients as this configuration buckets them"});
  v.inline_part(r.timing, [&](auto& timing) { visit(v, timing); });
  v.field(r.step_times_ms, {"step_times_ms", "ms", "each timed step, the slowest rank's, in "
                                                   "order: what configurations are compared by",
                            kWhen, "steps were timed"});
  visit(v, r.verdict);
  v.object(r.machine_speed, {"machine_speed", "", "the quiet-machine gate: what it saw and did"});
  visit_wall_time(v, r.end);
}

template <typename V, typename Record>
IfPart<Record, FrameRecord> visit(V& v, Record& r) {
  visit_frame(v, r.identity, r.end);
  visit_wall_time(v, r.end);
}

}  // namespace harness
