// A sweep's plan (its trials, with their settings) is held in memory by every rank: a sweep
// of billions of trials, allowed by a raised max_trials, would otherwise run the host out of
// memory after minutes of expanding. Counted before anything is expanded.
#pragma once

#include <string>

#include "spec/experiment.h"

namespace harness {

// Empty when the planned trials fit in this host's available memory for `ranks_on_host`
// ranks, each holding every trial; else why not, naming the count and both memory figures.
std::string plan_memory_problem(const Experiment& experiment, int ranks_on_host);

}  // namespace harness
