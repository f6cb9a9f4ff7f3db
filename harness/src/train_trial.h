// One training trial (seed semantics): broadcast rank 0's parameters, shard the data,
// average fused gradients through the communicator each step, then evaluate on rank 0.
#pragma once

#include "json.h"
#include "trial.h"
#include "trial_context.h"

namespace harness {

// Collective over context.comm. Returns the trial's record; only rank 0's is complete.
// Never throws for trial-level problems: they become status "failed", "skipped" or "diverged".
Json run_train_trial(const Trial& trial, const TrialContext& context);

}  // namespace harness
