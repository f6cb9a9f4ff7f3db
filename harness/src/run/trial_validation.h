// The checks that need plugins and data, run on every rank before any trial: each trial's
// kind validates it (plugin names and parameters, data files, input kinds), and the largest
// world size must fit in the launched job.
#pragma once

#include <vector>

#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

// Throws InputError listing every problem.
void validate_trials(const Experiment& experiment, const std::vector<Trial>& trials,
                     const PluginRegistry& plugins, DataCache& data, int launched_ranks);

}  // namespace harness
