// The statistics of a train trial's timing phase: a step is as slow as its slowest rank, so
// the step-time sample is the per-step maximum over ranks; throughput comes from its median
// (with a distribution-free 95% interval) and from wall time; per-rank medians are kept.
#pragma once

#include <mpi.h>

#include "measurement/step_samples.h"
#include "record/record_parts.h"
#include "trial/trial_context.h"

namespace harness {

// Collective over the trial's group. On rank 0 the record's timing part (only steps and seconds,
// 0, when there were no steps); elsewhere an empty one. training_steps: this rank's
// training-phase step durations.
// What makes a timing phase noisy: settings noise_cv_threshold and slow_step_factor.
struct NoiseLimits {
  double noise_cv_threshold = 0;
  double slow_step_factor = 0;
};

StepTimingRecord summarise_step_timing(const StepSamples& samples,
                                       const std::vector<double>& training_steps,
                                       const NoiseLimits& limits, const TrialContext& context);

}  // namespace harness
