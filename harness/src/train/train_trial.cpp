#include "train/train_trial.h"

#include <torch/torch.h>

#include <chrono>

#include "common/hashing.h"
#include "loader/plugin_call.h"
#include "mpi/mpi_runtime.h"
#include "mpi/watchdog.h"
#include "record/trial_record.h"
#include "train/buffer_sync.h"
#include "train/evaluation.h"
#include "train/fusion_buffer.h"
#include "train/gradient_reducer.h"
#include "train/reduction_memory.h"
#include "train/replica_check.h"
#include "train/step_timeline.h"
#include "train/step_timing.h"
#include "train/thread_pool_start.h"
#include "train/train_loop.h"
#include "train/training_setup.h"
#include "trial/backend_join.h"
#include "trial/quiet_gate.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

// Collective: on any rank's problem every rank returns it.
GroupProblem set_up_on_group(const TrainSettings& settings, const Trial& trial,
                             const TrialContext& context, const JoinedBackend& backend,
                             TrainingSetup* setup) {
  GroupProblem local;
  try {
    *setup = set_up_training(settings, trial.seed, context, backend);
  } catch (const std::exception& e) {
    local = {TrialStatus::kFailed, e.what()};
  }
  return agree_on_problem(context.comm, local, context.watchdog);
}

// Horovod's broadcast_parameters (and DDP's buffers): everyone starts from rank 0's initial
// weights and buffers.
void broadcast_initial_state(FusionBuffer& fusion, BufferSync& buffers,
                             plugin::Communicator& communicator, const TrialContext& context) {
  WatchedOperation watched(context.watchdog, "broadcast of initial parameters", 0, context.size);
  fusion.pack_values();
  throw_if_failed(communicator.broadcast(fusion.view(), 0), "broadcast");
  throw_if_failed(communicator.synchronize(), "synchronize");
  fusion.unpack_values();
  buffers.broadcast();
}

// Collective: rank 0 evaluates the trained model (before the timing phase changes it); a
// failure there is every rank's, so nobody waits for rank 0 in the timing phase.
GroupProblem evaluate_on_leader(const TrainSettings& settings, TrainingSetup& setup,
                                const TrialContext& context, const TrainOutcome& outcome,
                                Json* evaluation) {
  GroupProblem local;
  if (context.rank == 0 && outcome.status == TrialStatus::kOk) {
    try {
      *evaluation = evaluate_detection(*setup.model, *setup.data, setup.device,
                                       settings.threshold_percentile);
    } catch (const NonFiniteScores& e) {
      local = {TrialStatus::kDiverged, std::string("evaluation: ") + e.what()};
    } catch (const std::exception& e) {
      local = {TrialStatus::kFailed, std::string("evaluation: ") + e.what()};
    }
  }
  return agree_on_problem(context.comm, local, context.watchdog);
}

// Overlap calls the communicator from a second thread while the watchdog's thread may call
// MPI too: the library must allow concurrent calls.
GroupProblem thread_level_problem(const TrainSettings& settings) {
  const int level = mpi_thread_level();
  if (!settings.overlap || level >= MPI_THREAD_MULTIPLE) return {};
  return {TrialStatus::kFailed, "overlap needs MPI_THREAD_MULTIPLE; the MPI library provided " +
                                    mpi_thread_level_name(level)};
}

Json describe_reduction(const TrainSettings& settings, const GradientReducer& reducer) {
  return {{"buckets", reducer.bucket_count()},
          {"bucket_bytes", reducer.bucket_wire_bytes()},
          {"fusion_bytes", settings.fusion_bytes},
          {"overlap", settings.overlap},
          {"compression", compression_name(settings.compression)},
          {"wire_dtype", plugin::dtype_name(wire_dtype(settings.compression))},
          {"mpi_thread_level", mpi_thread_level_name(mpi_thread_level())}};
}

void write_training(const TrainSettings& settings, const TrainOutcome& outcome,
                    const ReplicaCheck& replicas, std::size_t bytes_per_step, Json* record) {
  Json& r = *record;
  r["lr"] = {{"base", settings.optimizer.lr},
             {"peak", outcome.peak_lr},
             {"warmup_steps", outcome.lr_warmup_steps}};
  r["steps"] = outcome.steps;
  r["steps_per_epoch"] = outcome.steps_per_epoch;
  r["epochs_completed"] = outcome.epoch_losses.size();
  r["bytes_reduced_per_step"] = bytes_per_step;
  r["train_time_s"] = outcome.train_seconds;
  r["params_consistent"] = replicas.consistent;
  r["param_hash"] = stable_hash(std::to_string(replicas.hash));
  const auto& epochs = outcome.epoch_losses;
  r["loss"] = {{"final", epochs.empty() ? Json() : Json(epochs.back())},
               {"per_epoch", epochs},
               {"per_step", outcome.step_losses}};
  const bool reached = outcome.steps_to_target.has_value();
  r["target"] = {{"loss", settings.target_loss ? Json(*settings.target_loss) : Json()},
                 {"reached", reached},
                 {"steps", reached ? Json(*outcome.steps_to_target) : Json()},
                 {"time_s", reached ? Json(*outcome.seconds_to_target) : Json()}};
}

// A timing phase the quiet gate could not keep out of a slow spell is noisy.
void mark_machine_speed(const QuietGate& gate, Json* timing) {
  (*timing)["machine_speed"] = gate.summary();
  if (!gate.last_quiet()) (*timing)["noisy"] = true;
}

// Rank 0 only: the timing phase's figures and the evaluation join the record.
void write_measurements(const Json& timing, const Json& evaluation, Json* record) {
  Json& r = *record;
  r["timed_steps"] = timing["timing"]["steps"];
  for (const char* key : {"throughput", "step_time_ms", "exposed_comm_ms", "overlap_fraction",
                          "timing", "noisy", "slow_steps", "stragglers", "machine_speed"})
    if (timing.contains(key)) r[key] = timing[key];
  if (evaluation.is_null()) return;
  r["loss"]["validation"] = evaluation["validation_loss"];
  r["detection"] = evaluation["detection"];
  if (evaluation.contains("detection_points"))
    r["detection_points"] = evaluation["detection_points"];
}

// The metrics stand (they are rank 0's model) even when the replicas drifted apart, but
// the trial is then marked inconsistent.
TrialStatus final_status(const TrainOutcome& outcome, const ReplicaCheck& replicas,
                         std::string* reason) {
  *reason = outcome.reason;
  if (outcome.status != TrialStatus::kOk || replicas.consistent) return outcome.status;
  *reason = "parameters differ between ranks after training";
  return TrialStatus::kInconsistent;
}

}  // namespace

Json run_train_trial(const TrainSettings& settings, const Trial& trial,
                     const TrialContext& context) {
  const auto started = Clock::now();
  Json record = new_trial_record(trial, context.size);
  if (const GroupProblem pool = start_thread_pool(settings.threads, context); pool.any())
    return finish_record(record, pool.status, pool.reason, started);
  // Training reduces fp32 gradients, or the compressed type.
  const JoinedBackend backend =
      join_backend(context, settings.backend, settings.backend_params,
                   wire_dtype(settings.compression), torch::cuda::is_available());
  if (backend.problem.any())
    return finish_record(record, backend.problem.status, backend.problem.reason, started);
  record["backend"] = describe_backend(backend);
  if (const GroupProblem threads = thread_level_problem(settings); threads.any())
    return finish_record(record, threads.status, threads.reason, started);
  TrainingSetup setup;
  const GroupProblem problem = set_up_on_group(settings, trial, context, backend, &setup);
  if (problem.any()) return finish_record(record, problem.status, problem.reason, started);
  record["model"] = describe_model(setup);
  record["data"] = describe_data(*setup.data);
  try {
    FusionBuffer fusion(setup.model->parameters(), /*extra_slots=*/0);
    BufferSync buffers(setup.model->buffers(), settings.broadcast_buffers, *backend.communicator);
    broadcast_initial_state(fusion, buffers, *backend.communicator, context);
    record["model"]["buffers"] = buffers.describe();
    StepTimeline timeline(settings.timeline ? settings.timeline_steps : 0);
    ReductionMemory memory(backend.communicator);
    GradientReducer reducer(setup.model->parameters(), reducer_options(settings),
                            *backend.communicator, settings.timeline ? &timeline : nullptr,
                            &memory);
    record["gradient_reduction"] = describe_reduction(settings, reducer);
    record["backend"]["memory"] = memory.describe();
    TrainingLoop loop(settings, trial.seed, context, setup, reducer, &buffers,
                      settings.timeline ? &timeline : nullptr);
    const TrainOutcome outcome = loop.train();
    {
      WatchedOperation watched(context.watchdog, "buffer broadcast after training", outcome.steps,
                               context.size);
      buffers.keep_in_step();
    }
    const ReplicaCheck replicas =
        check_replicas(fusion, setup.model->buffers(), context.comm, context.watchdog);
    Json evaluation;
    const GroupProblem evaluated =
        evaluate_on_leader(settings, setup, context, outcome, &evaluation);
    if (evaluated.any()) return finish_record(record, evaluated.status, evaluated.reason, started);
    QuietGate gate(settings.quiet, context.comm, context.watchdog);
    const StepSamples samples =
        outcome.status == TrialStatus::kOk ? loop.time_steps(gate) : StepSamples{};
    Json timing = summarise_step_timing(samples, outcome.step_seconds, settings, context);
    if (context.rank == 0) mark_machine_speed(gate, &timing);
    Json trace = timeline.gather(context.comm, context.watchdog);
    if (context.rank != 0) return finish_record(record, outcome.status, outcome.reason, started);
    if (!trace.is_null()) record["trace"] = std::move(trace);  // the leader files it apart
    write_training(settings, outcome, replicas, reducer.wire_bytes_per_step(), &record);
    write_measurements(timing, evaluation, &record);
    std::string reason;
    const TrialStatus status = final_status(outcome, replicas, &reason);
    return finish_record(record, status, reason, started);
  } catch (const std::exception& e) {
    return finish_record(record, TrialStatus::kFailed, e.what(), started);
  }
}

}  // namespace harness
