// The training loop of a train trial (seed semantics): DistributedSampler shards reshuffled
// per epoch, one fused allreduce of the gradients (and the step's loss) per step, the
// learning-rate schedule, per-phase timing after the untimed warm-up steps, and the steps
// and seconds to a target loss.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/plugin/communicator.h"
#include "record/trial_status.h"
#include "spec/train_settings.h"
#include "train/fusion_buffer.h"
#include "train/phase_times.h"
#include "train/training_setup.h"
#include "trial/trial_context.h"

namespace harness {

struct TrainOutcome {
  TrialStatus status = TrialStatus::kOk;  // kDiverged when the global loss stopped being finite
  std::string reason;
  std::uint64_t steps = 0;
  std::uint64_t timed_steps = 0;  // steps after the warm-up steps
  std::uint64_t timed_samples = 0;
  PhaseTimes phases;  // of the timed steps
  std::size_t steps_per_epoch = 0;
  double peak_lr = 0;
  std::uint64_t lr_warmup_steps = 0;
  std::vector<double> step_losses;   // global mean over ranks, every step
  std::vector<double> epoch_losses;  // mean of the epoch's step losses
  std::optional<std::uint64_t> steps_to_target;
  std::optional<double> seconds_to_target;
  double train_seconds = 0;
};

// Collective over context.comm; every rank gets the same losses and status. Throws when a
// plugin call fails.
TrainOutcome run_training(const TrainSettings& settings, std::uint64_t seed,
                          const TrialContext& context, TrainingSetup& setup,
                          plugin::Communicator& communicator, FusionBuffer& fusion);

}  // namespace harness
