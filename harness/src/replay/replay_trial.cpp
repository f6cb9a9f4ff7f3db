#include "replay/replay_trial.h"

#include <chrono>
#include <cmath>
#include <optional>

#include "common/available_memory.h"
#include "measurement/step_samples.h"
#include "measurement/step_timing.h"
#include "metrics/statistics.h"
#include "mpi/max_over_ranks.h"
#include "mpi/watchdog.h"
#include "record/record_verdicts.h"
#include "replay/busy_work.h"
#include "replay/captured_job.h"
#include "replay/ddp_buckets.h"
#include "replay/step_replay.h"
#include "spec/trial_expansion.h"
#include "trial/backend_join.h"
#include "trial/group_agreement.h"
#include "trial/quiet_gate.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The job as every rank reads it, or why it cannot be replayed here (the same on every rank).
struct LoadedJob {
  CapturedJob job;
  GroupProblem problem;
};

LoadedJob load_job(const ReplaySettings& settings, const Trial& trial,
                   const TrialContext& context) {
  LoadedJob loaded;
  try {
    loaded.job = read_captured_job(settings.job);
    // After reading: a file replaced before that is seen here, and the trial's key names the
    // content it was planned with.
    if (const std::string changed = changed_model_files(trial); !changed.empty())
      throw std::runtime_error(changed);
    if (loaded.job.world_size != context.size)
      loaded.problem = {TrialStatus::kFailed,
                        settings.job + " was captured at world size " +
                            std::to_string(loaded.job.world_size) + ", and this group has " +
                            std::to_string(context.size) + " ranks"};
  } catch (const std::exception& e) {
    loaded.problem = {TrialStatus::kFailed, e.what()};
  }
  loaded.problem = agree_on_problem(context.comm, loaded.problem, context.watchdog);
  return loaded;
}

// Every rank of this host holds each bucket's gradients and DDP's copy (and the compressed
// copy); the group counts as on one host, the worst case. Every rank judges alike.
GroupProblem memory_problem(const std::vector<ReplayBucket>& buckets,
                            std::optional<plugin::DType> wire, const TrialContext& context) {
  double per_rank = 0;
  for (const ReplayBucket& bucket : buckets)
    per_rank += 2.0 * static_cast<double>(bucket.bytes) +
                (wire ? static_cast<double>(bucket.bytes) / 2 : 0.0);
  const double group = per_rank * context.size;
  const std::string shortfall = memory_shortfall(
      group > 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(group));
  if (shortfall.empty()) return {};
  return {TrialStatus::kFailed, "the job's gradients on " + std::to_string(context.size) +
                                    " ranks (about " + gigabytes(per_rank) + " each) " + shortfall};
}

ReplayedJobRecord describe_job(const std::string& file, const CapturedJob& job,
                               const JobTimeline& timeline) {
  ReplayedJobRecord record;
  record.file = file;
  record.backend = job.backend;
  record.bucket_cap_mb = job.bucket_cap_mb;
  for (const CapturedParameter& parameter : job.parameters) record.parameters += parameter.numel;
  record.steps = static_cast<long long>(job.steps.size());
  std::vector<double> steps;
  for (const CapturedStep& step : job.steps) steps.push_back(step.step_s);
  record.step_ms = percentile(steps, 50) * 1e3;
  record.forward_ms = timeline.forward_s * 1e3;
  record.backward_compute_ms = timeline.backward_compute_s() * 1e3;
  record.finalize_ms = timeline.finalize_s * 1e3;
  record.rest_ms = timeline.rest_s * 1e3;
  return record;
}

ReplayedBucketsRecord describe_buckets(const std::vector<ReplayBucket>& buckets,
                                       std::optional<plugin::DType> wire) {
  ReplayedBucketsRecord record;
  for (const ReplayBucket& bucket : buckets) {
    record.bytes.push_back(bucket.bytes);
    record.launch_ms.push_back(bucket.launch_s * 1e3);
  }
  // The compression's type, or each type the buckets carry, in the order they come.
  for (const ReplayBucket& bucket : buckets) {
    const std::string name = plugin::dtype_name(wire.value_or(*captured_plugin_dtype(bucket.dtype)));
    if (record.wire_dtype.find(name) == std::string::npos)
      record.wire_dtype += (record.wire_dtype.empty() ? "" : ", ") + name;
  }
  if (record.wire_dtype.empty()) record.wire_dtype = "none";
  return record;
}

// One step, held to the trial's timeout like a training step.
ReplayedStep watched_step(StepReplay& replay, std::size_t index, const TrialContext& context) {
  WatchedOperation watched(context.watchdog, "replayed step", index, context.size);
  return replay.step();
}

// Timed steps until min_steps and min_time_s are both reached (or max_steps), in rounds:
// every rank decides on the slowest rank's clock, so all run the same steps.
StepSamples timed_steps(StepReplay& replay, const ReplaySettings& settings,
                        const TrialContext& context) {
  StepSamples samples;
  const auto started = Clock::now();
  std::uint64_t round = settings.min_steps;
  while (samples.steps() < settings.max_steps && round > 0) {
    for (std::uint64_t i = 0; i < round && samples.steps() < settings.max_steps; ++i) {
      const ReplayedStep step = watched_step(replay, samples.steps(), context);
      samples.total_s.push_back(step.total_s);
      samples.compute_s.push_back(step.compute_s);
      samples.exposed_comm_s.push_back(step.exposed_comm_s);
      samples.comm_s.push_back(step.comm_s);
      samples.optimizer_s.push_back(step.rest_s);
      samples.arrival_ns.push_back(step.backward_end_ns);
    }
    const double timed = max_over_ranks(seconds_since(started), context.comm, context.watchdog);
    if (timed >= settings.min_time_s && samples.steps() >= settings.min_steps) break;
    const double per_step = std::max(timed / static_cast<double>(samples.steps()), 1e-9);
    round = static_cast<std::uint64_t>(std::ceil((settings.min_time_s - timed) / per_step)) + 1;
  }
  samples.wall_seconds = seconds_since(started);
  return samples;
}

// What the backend is joined for: calibration, warm-up, the timed steps, and on rank 0 their
// statistics and every step, in the record. Throws GroupFailure on every rank when a backend
// call failed on any.
void time_replay(const ReplaySettings& settings, const JobTimeline& timeline,
                 const std::vector<ReplayBucket>& buckets, std::optional<plugin::DType> wire,
                 plugin::Communicator& communicator, const TrialContext& context,
                 ReplayRecord* record) {
  QuietGate gate(settings.quiet, context.comm, context.watchdog);
  BackendFault fault(context.watchdog);
  StepReplay replay(timeline, buckets, wire, communicator, fault, context.size,
                    calibrate_busy_work(context.comm, context.watchdog));
  for (std::uint64_t i = 0; i < settings.warmup_steps; ++i) watched_step(replay, i, context);
  leave_on_fault(context.comm, fault, context.watchdog);
  const StepSamples samples = gate.measure([&] { return timed_steps(replay, settings, context); });
  leave_on_fault(context.comm, fault, context.watchdog);
  const std::vector<double> slowest =
      max_over_ranks(samples.total_s, context.comm, context.watchdog);
  StepTimingRecord timing = summarise_step_timing(
      samples, {}, {settings.noise_cv_threshold, settings.slow_step_factor}, context);
  if (context.rank != 0) return;
  timing.throughput.reset();  // a replay has steps, not samples
  record->timing = std::move(timing);
  record->step_times_ms.emplace();
  for (const double seconds : slowest) record->step_times_ms->push_back(seconds * 1e3);
  record->machine_speed = gate.summary();
}

}  // namespace

TrialResult run_replay_trial(const ReplaySettings& settings, const Trial& trial,
                             const TrialContext& context) {
  const auto started = Clock::now();
  ReplayRecord record;
  record.identity = trial_identity(trial, context.size);
  const auto finish = [&](TrialStatus status, const std::string& reason) {
    record.end = trial_end(status, reason, started);
    settle_verdict(record, context.oversubscribed);
    return record;
  };
  const LoadedJob loaded = load_job(settings, trial, context);
  if (loaded.problem.any()) return finish(loaded.problem.status, loaded.problem.reason);
  const JobTimeline timeline = median_timeline(loaded.job);
  const std::vector<ReplayBucket> buckets =
      ddp_buckets(loaded.job, timeline, settings.bucket_cap_mb);
  const std::optional<plugin::DType> wire =
      settings.compression == Compression::kNone
          ? std::nullopt
          : std::optional<plugin::DType>(wire_dtype(settings.compression));
  record.job = describe_job(settings.job, loaded.job, timeline);
  record.buckets = describe_buckets(buckets, wire);
  if (const GroupProblem agreed = agree_on_problem(
          context.comm, memory_problem(buckets, wire, context), context.watchdog);
      agreed.any())
    return finish(agreed.status, agreed.reason);
  const JoinedBackend backend = join_backend(context, settings.backend, settings.backend_params,
                                             wire.value_or(plugin::DType::kFloat32), false,
                                             settings.join);
  if (backend.problem.any()) return finish(backend.problem.status, backend.problem.reason);
  record.backend = describe_backend(backend);
  try {
    time_replay(settings, timeline, buckets, wire, *backend.communicator, context, &record);
    return finish(TrialStatus::kOk, "");
  } catch (const std::exception& e) {
    return finish(TrialStatus::kFailed, e.what());
  }
}

}  // namespace harness
