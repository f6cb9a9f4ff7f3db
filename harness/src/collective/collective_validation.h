// The checks of a collective trial that need plugins: the backend and its parameters.
#pragma once

#include "spec/collective_settings.h"
#include "trial/validation_context.h"

namespace harness {

void validate_collective_trial(const CollectiveSettings& settings, ValidationContext& context);

}  // namespace harness
