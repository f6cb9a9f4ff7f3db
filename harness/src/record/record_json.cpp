#include "record/record_json.h"

#include "common/failure_text.h"
#include "record/record_reference.h"

namespace harness {
namespace {

template <typename T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

// The frame every record opens with. status and reason take their places here so that the
// line reads who, then how it ended, then what it measured.
Json frame(const TrialIdentity& id, const TrialEnd& end) {
  Json record{{"record_version", kRecordVersion},
              {"kind", id.kind},
              {"part", id.part},
              {"key", id.key},
              {"point", id.point},
              {"index", id.index},
              {"repetition", id.repetition},
              {"seed", id.seed},
              {"world_size", id.world_size},
              {"status", trial_status_name(end.status)},
              {"reason", failure_text(end.reason)},  // one line, whatever an exception carried
              {"axes", id.axes},
              {"settings", id.settings}};
  if (!id.model_files.is_null() && !id.model_files.empty()) record["model_files"] = id.model_files;
  return record;
}

Json to_json(const BackendRecord& backend) {
  Json out{{"name", backend.name}, {"version", backend.version}, {"algorithm", backend.algorithm}};
  if (backend.memory) out["memory"] = *backend.memory;
  return out;
}

Json to_json(const ModelRecord& model) {
  Json out{{"name", model.name},
           {"version", model.version},
           {"parameters", model.parameters},
           {"objective", {{"loss", model.objective.loss}, {"score", model.objective.score}}}};
  if (model.buffers)
    out["buffers"] = {{"tensors", model.buffers->tensors},
                      {"elements", model.buffers->elements},
                      {"fp32_elements", model.buffers->fp32_elements},
                      {"kept_in_step", model.buffers->kept_in_step}};
  return out;
}

Json to_json(const DataRecord& data) {
  return {{"description", data.description}, {"features", data.features},
          {"window", data.window},           {"train_rows", data.train_rows},
          {"test_rows", data.test_rows},     {"test_anomalies", data.test_anomalies}};
}

Json to_json(const CommunicationRecord& reduction) {
  return {{"buckets", reduction.buckets},
          {"bucket_bytes", reduction.bucket_bytes},
          {"fusion_bytes", reduction.fusion_bytes},
          {"overlap", reduction.overlap},
          {"compression", reduction.compression},
          {"wire_dtype", reduction.wire_dtype},
          {"mpi_thread_level", reduction.mpi_thread_level}};
}

void write_training(const TrainingOutcomeRecord& t, const std::optional<DetectionRecord>& detection,
                    Json& r) {
  r["lr"] = {{"base", t.lr.base}, {"peak", t.lr.peak}, {"warmup_steps", t.lr.warmup_steps}};
  r["steps"] = t.steps;
  r["steps_per_epoch"] = t.steps_per_epoch;
  r["epochs_completed"] = t.epoch_losses.size();
  r["bytes_reduced_per_step"] = t.bytes_reduced_per_step;
  r["train_time_s"] = t.train_time_s;
  r["params_consistent"] = t.params_consistent;
  r["param_hash"] = t.param_hash;
  r["loss"] = {{"final", t.epoch_losses.empty() ? Json() : Json(t.epoch_losses.back())},
               {"per_epoch", t.epoch_losses},
               {"per_step", t.step_losses}};
  if (detection) r["loss"]["validation"] = or_null(detection->validation_loss);
  r["target"] = {{"loss", or_null(t.target.loss)},
                 {"reached", t.target.reached()},
                 {"steps", or_null(t.target.steps)},
                 {"time_s", or_null(t.target.time_s)}};
}

Json to_json(const ThroughputRecord& t) {
  return {{"samples_per_s", t.samples_per_s},
          {"samples_per_s_ci95", {t.ci95_low, t.ci95_high}},
          {"samples_per_s_wall", t.samples_per_s_wall},
          {"samples_per_s_per_rank", t.samples_per_s_per_rank}};
}

// The figures of a trial that timed no step: present, and null.
Json no_throughput() {
  return {{"samples_per_s", nullptr},
          {"samples_per_s_ci95", nullptr},
          {"samples_per_s_wall", nullptr},
          {"samples_per_s_per_rank", Json::array()}};
}

Json to_json(const StragglersRecord& s) {
  return {
      {"arrival_skew_ms", {{"p50", s.skew_p50_ms}, {"p99", s.skew_p99_ms}, {"max", s.skew_max_ms}}},
      {"last_arrivals", s.last_arrivals},
      {"clock_sync", s.clock_sync}};
}

void write_timing(const StepTimingRecord& t, bool noisy, Json& r) {
  r["timed_steps"] = t.steps;
  r["throughput"] = t.throughput ? to_json(*t.throughput) : no_throughput();
  r["step_time_ms"] = t.step_time_ms ? to_json(*t.step_time_ms) : Json::object();
  r["exposed_comm_ms"] = t.step_time_ms ? Json(t.step_time_ms->exposed_comm) : Json();
  r["overlap_fraction"] = or_null(t.overlap_fraction);
  Json timing{{"steps", t.steps}, {"seconds", t.seconds}};
  if (t.min_time_s) timing["min_time_s"] = *t.min_time_s;
  r["timing"] = timing;
  r["noisy"] = noisy;
  if (!t.slow_steps) return;  // nothing was timed
  r["slow_steps"] = {{"timing", t.slow_steps->timing},
                     {"training", t.slow_steps->training},
                     {"factor", t.slow_steps->factor}};
  r["stragglers"] = t.stragglers ? to_json(*t.stragglers) : Json();
}

Json to_json(const DetectionMetrics& m) {
  return {{"auroc", or_null(m.auroc)},
          {"auprc", or_null(m.auprc)},
          {"best_f1", or_null(m.best_f1)},
          {"best_f1_threshold", or_null(m.best_f1_threshold)},
          {"threshold_percentile", m.threshold_percentile},
          {"threshold", m.threshold},
          {"f1_at_threshold", m.f1_at_threshold},
          {"precision_at_threshold", m.precision_at_threshold},
          {"recall_at_threshold", m.recall_at_threshold},
          {"zscore_auroc", or_null(m.zscore_auroc)}};
}

}  // namespace

Json to_json(const StepTimesRecord& s) {
  return {{"total", s.total},
          {"compute", s.compute},
          {"exposed_comm", s.exposed_comm},
          {"comm", s.comm},
          {"optimizer", s.optimizer},
          {"mean", s.mean},
          {"p50", s.p50},
          {"p90", s.p90},
          {"p99", s.p99},
          {"ci95", {s.ci95_low, s.ci95_high}},
          {"ci95_coverage", s.ci95_coverage},
          {"cv", s.cv},
          {"per_rank_median", s.per_rank_median}};
}

Json to_json(const MachineSpeedRecord& speed) {
  return {{"gate", speed.gate},           {"max_slowdown", speed.max_slowdown},
          {"wait_s", speed.wait_s},       {"measurements", speed.measurements},
          {"not_quiet", speed.not_quiet}, {"retries", speed.retries},
          {"waited_s", speed.waited_s},   {"slowdown", or_null(speed.slowdown)}};
}

Json to_json(const TrialIdentity& identity, const TrialEnd& end) {
  Json r = frame(identity, end);
  r["wall_time_s"] = end.wall_time_s;
  return r;
}

Json to_json(const TrainRecord& record) {
  Json r = frame(record.identity, record.end);
  if (record.backend) r["backend"] = to_json(*record.backend);
  if (record.model) r["model"] = to_json(*record.model);
  if (record.data) r["data"] = to_json(*record.data);
  if (record.gradient_reduction) r["gradient_reduction"] = to_json(*record.gradient_reduction);
  if (record.training) write_training(*record.training, record.detection, r);
  if (record.timing) write_timing(*record.timing, record.noisy(), r);
  if (record.machine_speed) r["machine_speed"] = to_json(*record.machine_speed);
  if (record.detection) {
    r["detection"] = to_json(record.detection->rows);
    if (record.detection->points) r["detection_points"] = to_json(*record.detection->points);
  }
  if (record.trace_file) r["trace_file"] = *record.trace_file;
  r["wall_time_s"] = record.end.wall_time_s;
  return r;
}

Json to_json(const CollectiveRecord& record) {
  Json r = frame(record.identity, record.end);
  if (record.backend) r["backend"] = to_json(*record.backend);
  if (record.points) {
    Json points = Json::array();
    for (const CollectivePoint& point : *record.points) points.push_back(to_json(point));
    r["points"] = points;
    r["noisy"] = record.noisy();
  }
  if (record.machine_speed) r["machine_speed"] = to_json(*record.machine_speed);
  r["wall_time_s"] = record.end.wall_time_s;
  return r;
}

}  // namespace harness
