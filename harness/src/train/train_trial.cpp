#include "train/train_trial.h"

#include <torch/torch.h>

#include <chrono>

#include "common/hashing.h"
#include "measurement/reduction_memory.h"
#include "measurement/step_timing.h"
#include "mpi/mpi_runtime.h"
#include "mpi/watchdog.h"
#include "record/record_json.h"
#include "record/record_verdicts.h"
#include "record/trial_record.h"
#include "results/file_writing.h"  // ResultsWriteError
#include "results/trace_files.h"
#include "spec/trial_expansion.h"
#include "train/buffer_sync.h"
#include "train/evaluation.h"
#include "train/flat_parameters.h"
#include "train/fusion_buffer.h"
#include "train/gradient_reducer.h"
#include "train/model_agreement.h"
#include "train/replica_check.h"
#include "train/sharded_parameters.h"
#include "train/step_timeline.h"
#include "train/thread_pool_start.h"
#include "train/train_loop.h"
#include "train/training_setup.h"
#include "trial/backend_join.h"
#include "trial/quiet_gate.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

// Collective: on any rank's problem every rank returns it; so does a model file changed since
// the sweep was planned, or a rank whose model differs from rank 0's.
GroupProblem set_up_on_group(const TrainSettings& settings, const Trial& trial,
                             const TrialContext& context, const JoinedBackend& backend,
                             TrainingSetup* setup) {
  GroupProblem local;
  try {
    *setup = set_up_training(settings, trial.seed, context, backend);
    // After loading: a file replaced before that is seen here.
    if (const std::string changed = changed_model_files(trial); !changed.empty())
      throw std::runtime_error(changed);
  } catch (const std::exception& e) {
    local = {TrialStatus::kFailed, e.what()};
  }
  const GroupProblem agreed = agree_on_problem(context.comm, local, context.watchdog);
  if (agreed.any()) return agreed;
  return agree_on_architecture(*setup->model, context);
}

// Horovod's broadcast_parameters (and DDP's buffers): everyone starts from rank 0's initial
// weights and buffers.
// A failed broadcast on one rank ends the trial on every rank here, before training.
void broadcast_initial_state(FusionBuffer& fusion, BufferSync& buffers,
                             plugin::Communicator& communicator, const TrialContext& context,
                             BackendFault& fault) {
  {
    WatchedOperation watched(context.watchdog, "broadcast of initial parameters", 0, context.size);
    fusion.pack_values();
    fault.record(communicator.broadcast(fusion.view(), 0), "broadcast");
    fault.record(communicator.synchronize(), "synchronize");
    fusion.unpack_values();
    buffers.broadcast();
  }
  leave_on_fault(context.comm, fault, context.watchdog);
}

// Collective, after training: rank 0's buffers once more, then every rank's parameters and
// buffers compared.
ReplicaCheck check_after_training(FusionBuffer& fusion, BufferSync& buffers,
                                  const TrainingSetup& setup, const TrialContext& context,
                                  const TrainOutcome& outcome) {
  {
    WatchedOperation watched(context.watchdog, "buffer broadcast after training", outcome.steps,
                             context.size);
    buffers.keep_in_step();
  }
  // Training that ended on a backend's failure has told it already.
  if (outcome.status == TrialStatus::kOk)
    leave_on_fault(context.comm, buffers.fault(), context.watchdog);
  return check_replicas(fusion, setup.model->buffers(), context.comm, context.watchdog);
}

// Collective: rank 0 evaluates the trained model (before the timing phase changes it); a
// failure there is every rank's, so nobody waits for rank 0 in the timing phase.
GroupProblem evaluate_on_leader(const TrainSettings& settings, TrainingSetup& setup,
                                const TrialContext& context, const TrainOutcome& outcome,
                                std::optional<DetectionResult>* evaluation) {
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

// Overlap calls the communicator from a second thread (the main thread waits for it before
// it calls MPI again): the library must allow calls from more than one thread.
GroupProblem thread_level_problem(const TrainSettings& settings) {
  const int level = mpi_thread_level();
  if (!settings.overlap || level >= MPI_THREAD_SERIALIZED) return {};
  return {TrialStatus::kFailed, "overlap needs MPI_THREAD_SERIALIZED; the MPI library provided " +
                                    mpi_thread_level_name(level)};
}

CommunicationRecord describe_reduction(const TrainSettings& settings,
                                       const GradientReducer& reducer) {
  return {reducer.bucket_count(),
          reducer.bucket_wire_bytes(),
          settings.overlap,
          compression_name(settings.compression),
          plugin::dtype_name(wire_dtype(settings.compression)),
          mpi_thread_level_name(mpi_thread_level())};
}

TrainingMemoryRecord describe_memory(const GradientReducer& reducer,
                                     const std::optional<ShardedParameters>& sharded,
                                     const TrainingSetup& setup, const TrainingLoop& loop) {
  std::size_t parameter_bytes = 0;
  if (sharded)
    parameter_bytes = sharded->parameter_bytes();
  else
    for (const auto& parameter : setup.model->parameters()) parameter_bytes += parameter.nbytes();
  return {parameter_bytes, reducer.gradient_bytes(), loop.optimizer_state_bytes()};
}

TrainingOutcomeRecord describe_training(const TrainOutcome& outcome, const ReplicaCheck& replicas,
                                        std::size_t bytes_per_step) {
  TrainingOutcomeRecord t;
  t.lr = {outcome.peak_lr, static_cast<long long>(outcome.lr_warmup_steps)};
  t.steps = static_cast<long long>(outcome.steps);
  t.steps_per_epoch = static_cast<long long>(outcome.steps_per_epoch);
  t.epoch_losses = outcome.epoch_losses;
  t.step_losses = outcome.step_losses;
  t.bytes_reduced_per_step = bytes_per_step;
  t.train_time_s = outcome.train_seconds;
  t.params_consistent = replicas.consistent;
  t.param_hash = stable_hash(std::to_string(replicas.hash));
  if (outcome.steps_to_target) t.target.steps = static_cast<long long>(*outcome.steps_to_target);
  t.target.time_s = outcome.seconds_to_target;
  return t;
}

// The metrics stand (they are rank 0's model) even when the replicas drifted apart, but
// the trial is then marked inconsistent.
TrialStatus final_status(const TrainOutcome& outcome, const ReplicaCheck& replicas,
                         std::string* reason) {
  *reason = outcome.reason;
  if (outcome.status != TrialStatus::kOk) return outcome.status;
  if (replicas.non_finite_rank >= 0) {
    *reason = "parameters on rank " + std::to_string(replicas.non_finite_rank) +
              " are NaN or infinite after training, though every step's loss was finite";
    return TrialStatus::kFailed;
  }
  if (replicas.consistent) return outcome.status;
  *reason = "parameters differ between ranks after training";
  return TrialStatus::kInconsistent;
}

void take_evaluation(const std::optional<DetectionResult>& evaluation, TrainRecord* record) {
  if (!evaluation) return;
  record->training->validation_loss = evaluation->validation_loss;
  record->detection = evaluation->rows;
  record->detection_points = evaluation->points;
}

// The timeline's trace filed beside the results, named in the record; a problem when the
// folder cannot take it.
std::string keep_trace(const Json& trace, const Trial& trial, const TrialContext& context,
                       TrainRecord* record) {
  if (trace.is_null()) return "";
  try {
    record->trace_file = file_trace(trace, trial.key, context.results_directory);
  } catch (const ResultsWriteError& e) {
    return std::string("its trace was not written: ") + e.what();
  }
  return "";
}

// The thread pool, the communicator and the model and data, on every rank of the group; the
// first problem any rank has ends the trial on all of them.
GroupProblem join_and_set_up(const TrainSettings& settings, const Trial& trial,
                             const TrialContext& context, JoinedBackend* backend,
                             TrainingSetup* setup, TrainRecord* record) {
  if (const GroupProblem pool = start_thread_pool(settings.threads, context); pool.any())
    return pool;
  // Training reduces fp32 gradients, or the compressed type.
  *backend = join_backend(context, settings.backend, settings.backend_params,
                          wire_dtype(settings.compression), torch::cuda::is_available());
  if (backend->problem.any()) return backend->problem;
  record->backend = describe_backend(*backend);
  if (const GroupProblem threads = thread_level_problem(settings); threads.any()) return threads;
  if (const GroupProblem problem = set_up_on_group(settings, trial, context, *backend, setup);
      problem.any())
    return problem;
  record->model = describe_model(*setup);
  record->data = describe_data(*setup->data);
  return {};
}

}  // namespace

TrialResult run_train_trial(const TrainSettings& settings, const Trial& trial,
                            const TrialContext& context) {
  const auto started = Clock::now();
  TrainRecord record;
  record.identity = trial_identity(trial, context.size);
  const auto finish = [&](TrialStatus status, const std::string& reason) {
    record.end = trial_end(status, reason, started);
    settle_verdict(record, context.oversubscribed);
    return record;
  };
  JoinedBackend backend;
  TrainingSetup setup;
  if (const GroupProblem problem =
          join_and_set_up(settings, trial, context, &backend, &setup, &record);
      problem.any())
    return finish(problem.status, problem.reason);
  try {
    FusionBuffer fusion(setup.model->parameters(), /*extra_slots=*/0);
    BackendFault fault(context.watchdog);
    BufferSync buffers(setup.model->buffers(), settings.broadcast_buffers, *backend.communicator,
                       fault);
    broadcast_initial_state(fusion, buffers, *backend.communicator, context, fault);
    record.model->buffers = buffers.describe();
    StepTimeline timeline(settings.timeline ? settings.timeline_steps : 0);
    StepTimeline* traced = settings.timeline ? &timeline : nullptr;
    ReductionMemory memory(backend.communicator);
    GradientReducer reducer(setup.model->parameters(),
                            reducer_options(settings, context.rank, context.size),
                            *backend.communicator, traced, &memory, &fault);
    std::optional<ShardedParameters> sharded;
    std::optional<FlatParameters> flat;
    if (settings.strategy == Strategy::kSharded)
      sharded.emplace(reducer, *backend.communicator, context.rank, &memory);
    else if (reducer.zeroes_gradients())
      flat.emplace(reducer);
    record.gradient_reduction = describe_reduction(settings, reducer);
    record.backend->memory = memory.describe();
    TrainingLoop loop(
        settings, trial.seed, context, setup,
        {reducer, sharded ? &*sharded : nullptr, &buffers, traced, flat ? &*flat : nullptr});
    const TrainOutcome outcome = loop.train();
    const ReplicaCheck replicas = check_after_training(fusion, buffers, setup, context, outcome);
    std::optional<DetectionResult> evaluation;
    // Parameters a backend left non-finite are not the model's doing: the final status says so,
    // and no evaluation scores them.
    if (replicas.non_finite_rank < 0) {
      const GroupProblem evaluated =
          evaluate_on_leader(settings, setup, context, outcome, &evaluation);
      if (evaluated.any()) return finish(evaluated.status, evaluated.reason);
    }
    QuietGate gate(settings.quiet, context.comm, context.watchdog);
    const StepSamples samples =
        outcome.status == TrialStatus::kOk ? loop.time_steps(gate) : StepSamples{};
    StepTimingRecord timing =
        summarise_step_timing(samples, outcome.step_seconds,
                              {settings.noise_cv_threshold, settings.slow_step_factor}, context);
    const Json trace = timeline.gather(context.comm, context.watchdog);
    if (context.rank != 0) return finish(outcome.status, outcome.reason);
    record.training = describe_training(outcome, replicas, reducer.wire_bytes_per_step());
    record.memory = describe_memory(reducer, sharded, setup, loop);
    record.timing = std::move(timing);
    record.machine_speed = gate.summary();
    take_evaluation(evaluation, &record);
    // Last, so that a trace the folder cannot take fails the trial with its figures kept.
    if (const std::string problem = keep_trace(trace, trial, context, &record); !problem.empty())
      return finish(TrialStatus::kFailed, problem);
    std::string reason;
    const TrialStatus status = final_status(outcome, replicas, &reason);
    return finish(status, reason);
  } catch (const std::exception& e) {
    return finish(TrialStatus::kFailed, e.what());
  }
}

}  // namespace harness
