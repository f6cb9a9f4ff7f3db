// Before rank 0's weights are broadcast, every rank must hold the same architecture: a model
// file with one path can hold different modules on different hosts, and a broadcast between
// tensors of other sizes pairs the wrong elements or waits forever.
#pragma once

#include <string>

#include "harness/plugin/model.h"
#include "trial/group_agreement.h"
#include "trial/trial_context.h"

namespace harness {

// "503 parameters in 4 tensors: [10, 20], [10], [20, 10], [20]; buffers: none".
std::string architecture_text(plugin::Model& model);

// Collective: a problem naming this rank's and rank 0's architecture when they differ.
GroupProblem agree_on_architecture(plugin::Model& model, const TrialContext& context);

}  // namespace harness
