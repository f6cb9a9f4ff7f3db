// One training trial (seed semantics): join the backend, build the model, broadcast rank 0's
// parameters, train, check the replicas, gather timings, evaluate on rank 0.
#pragma once

#include "common/json.h"
#include "spec/train_settings.h"
#include "spec/trial.h"
#include "record/trial_record.h"
#include "trial/trial_context.h"

namespace harness {

// Collective over context.comm. Returns the trial's record; only rank 0's is complete.
// Never throws for trial-level problems: they become status failed, skipped, diverged or
// inconsistent.
TrialResult run_train_trial(const TrainSettings& settings, const Trial& trial,
                            const TrialContext& context);

}  // namespace harness
