#include "record/trial_run.h"

#include <tuple>
#include <utility>

#include "common/input_error.h"

namespace harness {
namespace {

// A record's field, or null when it has none (or is no object). Every reader below goes
// through it, so that a record of another layout reads as unset fields, never as an error.
const Json& member(const Json& object, const char* key) {
  static const Json none;
  if (!object.is_object()) return none;
  const auto found = object.find(key);
  return found == object.end() ? none : *found;
}

std::optional<double> number(const Json& object, const char* key) {
  const Json& value = member(object, key);
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

double number_or(const Json& object, const char* key, double fallback = 0) {
  return number(object, key).value_or(fallback);
}

template <typename Integer>
Integer integer_or(const Json& object, const char* key, Integer fallback = 0) {
  const Json& value = member(object, key);
  if (value.is_number_integer()) return value.get<Integer>();
  return value.is_number() ? static_cast<Integer>(value.get<double>()) : fallback;
}

std::string text_or_empty(const Json& object, const char* key) {
  const Json& value = member(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

bool flag_or(const Json& object, const char* key, bool fallback) {
  const Json& value = member(object, key);
  return value.is_boolean() ? value.get<bool>() : fallback;
}

template <typename T>
std::vector<T> numbers_of(const Json& object, const char* key) {
  std::vector<T> values;
  const Json& list = member(object, key);
  if (!list.is_array()) return values;
  for (const Json& value : list)
    if (value.is_number()) values.push_back(value.get<T>());
  return values;
}

// An interval written as [low, high]: both ends, or `fallback` for each when it is not one.
std::pair<double, double> interval_or(const Json& object, const char* key, double fallback) {
  const Json& value = member(object, key);
  if (value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number())
    return {value[0].get<double>(), value[1].get<double>()};
  return {fallback, fallback};
}

Json object_or_empty(const Json& object, const char* key) {
  const Json& value = member(object, key);
  return value.is_object() ? value : Json::object();
}

TrialIdentity read_identity(const Json& r) {
  TrialIdentity id;
  id.kind = text_or_empty(r, "kind");
  id.part = text_or_empty(r, "part");
  id.key = text_or_empty(r, "key");
  id.point = text_or_empty(r, "point");
  id.index = integer_or(r, "index", id.index);
  id.repetition = integer_or(r, "repetition", id.repetition);
  id.seed = integer_or(r, "seed", id.seed);
  id.world_size = integer_or(r, "world_size", id.world_size);
  id.axes = object_or_empty(r, "axes");
  id.settings = object_or_empty(r, "settings");
  id.model_files = member(r, "model_files");
  return id;
}

TrialEnd read_end(const Json& r) {
  const Json& status = member(r, "status");
  const auto parsed =
      status.is_string() ? parse_trial_status(status.get<std::string>()) : std::nullopt;
  if (!parsed)
    throw InputError("status is " + (status.is_null() ? std::string("missing") : status.dump()) +
                     ", expected one of " + trial_status_names());
  TrialEnd end;
  end.status = *parsed;
  end.reason = text_or_empty(r, "reason");
  end.wall_time_s = number_or(r, "wall_time_s");
  return end;
}

std::optional<BackendRecord> read_backend(const Json& r) {
  const Json& b = member(r, "backend");
  if (!b.is_object()) return std::nullopt;
  BackendRecord backend{text_or_empty(b, "name"), text_or_empty(b, "version"),
                        text_or_empty(b, "algorithm"), std::nullopt};
  if (member(b, "memory").is_string()) backend.memory = text_or_empty(b, "memory");
  return backend;
}

std::optional<MachineSpeedRecord> read_machine_speed(const Json& r) {
  const Json& m = member(r, "machine_speed");
  if (!m.is_object()) return std::nullopt;
  MachineSpeedRecord speed;
  speed.gate = text_or_empty(m, "gate");
  speed.max_slowdown = number_or(m, "max_slowdown");
  speed.wait_s = number_or(m, "wait_s");
  speed.measurements = integer_or<long long>(m, "measurements");
  speed.not_quiet = integer_or<long long>(m, "not_quiet");
  speed.retries = integer_or<long long>(m, "retries");
  speed.waited_s = number_or(m, "waited_s");
  speed.slowdown = number(m, "slowdown");
  return speed;
}

std::optional<ThroughputRecord> read_throughput(const Json& r) {
  const Json& t = member(r, "throughput");
  const auto samples_per_s = number(t, "samples_per_s");
  if (!samples_per_s) return std::nullopt;  // no step was timed
  ThroughputRecord throughput;
  throughput.samples_per_s = *samples_per_s;
  std::tie(throughput.ci95_low, throughput.ci95_high) =
      interval_or(t, "samples_per_s_ci95", *samples_per_s);
  throughput.samples_per_s_wall = number_or(t, "samples_per_s_wall");
  throughput.samples_per_s_per_rank = numbers_of<double>(t, "samples_per_s_per_rank");
  return throughput;
}

std::optional<StepTimesRecord> read_step_times(const Json& r) {
  const Json& s = member(r, "step_time_ms");
  if (!number(s, "p50")) return std::nullopt;  // no step was timed
  StepTimesRecord times;
  times.total = number_or(s, "total");
  times.compute = number_or(s, "compute");
  times.exposed_comm = number_or(s, "exposed_comm");
  times.comm = number_or(s, "comm");
  times.optimizer = number_or(s, "optimizer");
  times.mean = number_or(s, "mean");
  times.p50 = number_or(s, "p50");
  times.p90 = number_or(s, "p90");
  times.p99 = number_or(s, "p99");
  std::tie(times.ci95_low, times.ci95_high) = interval_or(s, "ci95", times.p50);
  times.ci95_coverage = number_or(s, "ci95_coverage");
  times.cv = number_or(s, "cv");
  times.per_rank_median = numbers_of<double>(s, "per_rank_median");
  return times;
}

TargetRecord read_target(const Json& r) {
  const Json& t = member(r, "target");
  TargetRecord target;
  target.loss = number(t, "loss");
  if (flag_or(t, "reached", false)) target.steps = integer_or<long long>(t, "steps");
  target.time_s = number(t, "time_s");
  return target;
}

bool has_training_figures(const Json& r) {
  return !member(r, "throughput").is_null() || !member(r, "loss").is_null() ||
         !member(r, "detection").is_null();
}

std::optional<TrainFigures> read_train_figures(const Json& r) {
  if (!has_training_figures(r)) return std::nullopt;
  TrainFigures train;
  train.timed = member(r, "throughput").is_object();
  train.throughput = read_throughput(r);
  train.step_time_ms = read_step_times(r);
  train.steps = integer_or<long long>(r, "steps");
  train.final_loss = number(member(r, "loss"), "final");
  train.target = read_target(r);
  train.auroc = number(member(r, "detection"), "auroc");
  train.points_auroc = number(member(r, "detection_points"), "auroc");
  return train;
}

std::optional<CollectiveFigures> read_collective_figures(const Json& r) {
  const Json& points = member(r, "points");
  if (!points.is_array()) return std::nullopt;
  CollectiveFigures collective;
  const Json& settings = member(r, "settings");
  collective.dtype = text_or_empty(settings, "dtype");
  collective.op = text_or_empty(settings, "op");
  for (const Json& point : points)
    if (point.is_object()) collective.points.push_back(read_collective_point(point));
  return collective;
}

}  // namespace

CollectivePoint read_collective_point(const Json& p) {
  CollectivePoint point;
  point.bytes = integer_or<std::uint64_t>(p, "bytes");
  point.count = integer_or<std::uint64_t>(p, "count");
  point.timing = text_or_empty(p, "timing");
  point.iters = integer_or<std::uint64_t>(p, "iters");
  point.calls = integer_or<std::uint64_t>(p, "calls");
  point.time_us = number_or(p, "time_us");
  point.mean_us = number_or(p, "mean_us");
  point.min_us = number_or(p, "min_us");
  point.p50_us = number_or(p, "p50_us");
  point.p99_us = number_or(p, "p99_us");
  point.ci_low_us = number_or(p, "ci_low_us");
  point.ci_high_us = number_or(p, "ci_high_us");
  point.cv = number_or(p, "cv");
  point.algbw_gbps = number_or(p, "algbw_gbps");
  point.busbw_gbps = number_or(p, "busbw_gbps");
  point.busbw_ci_low_gbps = number_or(p, "busbw_ci_low_gbps");
  point.busbw_ci_high_gbps = number_or(p, "busbw_ci_high_gbps");
  point.slowdown = number(p, "slowdown");
  point.noisy = flag_or(p, "noisy", false);
  if (member(p, "wrong").is_number()) point.wrong = integer_or<long long>(p, "wrong");
  return point;
}

TrialRun read_trial_run(Json record) {
  if (!record.is_object())
    throw InputError("a trial record is a JSON object, not " + record.dump());
  TrialRun run;
  run.identity = read_identity(record);
  run.end = read_end(record);
  run.noisy = flag_or(record, "noisy", false);
  run.backend = read_backend(record);
  run.machine_speed = read_machine_speed(record);
  run.train = read_train_figures(record);
  run.collective = read_collective_figures(record);
  run.json = std::move(record);
  return run;
}

}  // namespace harness
