// One collective-benchmark trial: join the backend, then measure every message size.
#pragma once

#include "common/json.h"
#include "spec/collective_settings.h"
#include "spec/trial.h"
#include "record/trial_record.h"
#include "trial/trial_context.h"

namespace harness {

// Collective over context.comm; rank 0's record is complete.
TrialResult run_collective_trial(const CollectiveSettings& settings, const Trial& trial,
                                 const TrialContext& context);

}  // namespace harness
