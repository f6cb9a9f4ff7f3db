// The checks of a train trial that need plugins and data: backend and model names and
// parameters, the data set (loaded once here, which finds bad files and settings before any
// trial runs) and the model's input kind against the data's.
#pragma once

#include "spec/train_settings.h"
#include "trial/validation_context.h"

namespace harness {

void validate_train_trial(const TrainSettings& settings, ValidationContext& context);

}  // namespace harness
