// Expanding an experiment into its trials: per part, the cartesian product of its sweep axes
// (the last axis varying fastest) times the repetitions.
#pragma once

#include <vector>

#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

std::vector<Trial> expand_trials(const Experiment& experiment);

}  // namespace harness
