// One replay trial: a captured PyTorch DDP job's step (scripts/tune's job.json) replayed on the
// trial's ranks through a backend at a bucket cap and compression, timed as a train trial's
// steps are (train/step_timing.h), so that its median step with its interval predicts what the
// job's step would take in that configuration.
#pragma once

#include "record/trial_record.h"
#include "spec/replay_settings.h"
#include "spec/trial.h"
#include "trial/trial_context.h"

namespace harness {

// Collective over context.comm; rank 0's record is complete.
TrialResult run_replay_trial(const ReplaySettings& settings, const Trial& trial,
                             const TrialContext& context);

}  // namespace harness
