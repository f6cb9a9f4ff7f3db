// The statistics of a train trial's timing phase: a step is as slow as its slowest rank, so
// the step-time sample is the per-step maximum over ranks; throughput comes from its median
// (with a distribution-free 95% interval) and from wall time; per-rank medians are kept.
#pragma once

#include <mpi.h>

#include "common/json.h"
#include "train/train_loop.h"

namespace harness {

// Collective over the trial's group. On rank 0: {"throughput", "step_time_ms", "timing", "noisy",
// "slow_steps", "stragglers"} for the record (null figures when there were no steps);
// elsewhere an empty object. training_steps: this rank's training-phase step durations.
Json summarise_step_timing(const StepSamples& samples, const std::vector<double>& training_steps,
                           const TrainSettings& settings, const TrialContext& context);

}  // namespace harness
