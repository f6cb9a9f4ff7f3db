// The training loop of a train trial (seed semantics): DistributedSampler shards reshuffled
// per epoch, the gradients (and the step's loss) averaged by the GradientReducer (buckets,
// optionally overlapped with backward and compressed), the learning-rate schedule, per-phase timing after the untimed warm-up steps, and the steps
// and seconds to a target loss. Then, on request, the timing phase: more of the same steps
// on the same data until enough time is measured, recording nothing but their durations.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/plugin/communicator.h"
#include "measurement/step_samples.h"
#include "metrics/statistics.h"
#include "record/trial_status.h"
#include "spec/train_settings.h"
#include "train/buffer_sync.h"
#include "train/distributed_sampler.h"
#include "train/gradient_reducer.h"
#include "train/lr_schedule.h"
#include "train/training_setup.h"
#include "trial/quiet_gate.h"
#include "trial/trial_context.h"

namespace torch::optim {
class Optimizer;
}

namespace harness {

struct TrainOutcome {
  TrialStatus status = TrialStatus::kOk;  // kDiverged when the global loss stopped being finite
  std::string reason;
  std::uint64_t steps = 0;
  std::size_t steps_per_epoch = 0;
  double peak_lr = 0;
  std::uint64_t lr_warmup_steps = 0;
  std::vector<double> step_losses;   // global mean over ranks, every step
  std::vector<double> epoch_losses;  // mean of the epoch's step losses
  std::optional<std::uint64_t> steps_to_target;
  std::optional<double> seconds_to_target;
  double train_seconds = 0;
  std::vector<double> step_seconds;  // this rank's, every training step
};

class FlatParameters;
class ShardedParameters;

// How a step averages and applies the gradients: the reducer, and what the optimizer steps:
// under strategy sharded the shards, under ddp the buckets' flat parameters where there are
// (else, both null, the model's parameters). Rank 0's buffers go by `buffers` (may be null).
struct StepParts {
  GradientReducer& reducer;
  ShardedParameters* sharded = nullptr;
  BufferSync* buffers = nullptr;
  StepTimeline* timeline = nullptr;
  FlatParameters* flat = nullptr;
};

class TrainingLoop {
 public:
  TrainingLoop(const TrainSettings& settings, std::uint64_t seed, const TrialContext& context,
               TrainingSetup& setup, const StepParts& parts);
  ~TrainingLoop();
  TrainingLoop(const TrainingLoop&) = delete;
  TrainingLoop& operator=(const TrainingLoop&) = delete;

  // Collective over the group; every rank gets the same losses and status. A forward or
  // backward that raises on one rank fails the trial on every rank, with that rank's message.
  // Throws when a communicator call fails.
  TrainOutcome train();

  // Collective: full batches of the first epoch's shard — settings.warmup_steps untimed, then
  // (the timeline, when there is one, recording the first of them) round after round until the slowest rank has timed settings.min_time_s (at least 5 steps,
  // at most max_timing_steps). Changes the parameters: run it after evaluation.
  // The timed rounds run through the quiet gate: again, from scratch, when a slow spell
  // began during them. Throws GroupFailure on every rank when a step raised on one.
  StepSamples time_steps(QuietGate& gate);

  // One step of the timing phase, untimed: the next full batch of epoch 0's shard at the
  // peak learning rate. For benchmarks that time steps themselves (bench/models).
  void timing_step();

  // The optimizer's state on this rank (after a step: it is created by the first).
  std::size_t optimizer_state_bytes() const;

 private:
  struct StepResult;
  StepResult run_step(const at::Tensor& indices, double lr);
  void run_epoch(std::uint64_t epoch);
  void train_step(const at::Tensor& indices);
  std::optional<std::string> forward_backward(const at::Tensor& indices,
                                              std::chrono::steady_clock::time_point* forward_ended);
  [[noreturn]] void leave_failed_step(const std::optional<std::string>& failure);
  at::Tensor next_timing_batch();
  std::size_t timing_batch_size() const;
  void record_loss(double global_loss);
  StepSamples timed_rounds();
  void time_round(std::size_t steps, StepSamples* samples);
  std::size_t steps_per_epoch() const;
  std::uint64_t lr_warmup_steps() const;
  bool running() const;

  const TrainSettings& settings_;
  const TrialContext& context_;
  TrainingSetup& setup_;
  GradientReducer& reducer_;
  ShardedParameters* sharded_;  // null under ddp
  BufferSync* buffers_;         // may be null
  StepTimeline* timeline_;      // may be null
  at::Tensor train_;
  DistributedSampler sampler_;
  LrSchedule schedule_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  MovingMean recent_{10};  // the target is judged on the 10-step moving mean
  TrainOutcome outcome_;
  std::chrono::steady_clock::time_point started_;
  at::Tensor timing_order_;  // epoch 0's shard, on the device, once the timing phase starts
  std::size_t next_timing_batch_ = 0;
  std::uint64_t steps_run_ = 0;  // training and timing steps, for the watchdog's reports
};

}  // namespace harness
