// Before a replay trial runs: its job file can be read and was captured at the trial's world
// size, its backend exists and reduces the compression's type, its step bounds agree, and a
// backend joined through the bootstrap alone is a plugin.
#pragma once

#include "spec/replay_settings.h"
#include "trial/validation_context.h"

namespace harness {

void validate_replay_trial(const ReplaySettings& settings, ValidationContext& context);

}  // namespace harness
