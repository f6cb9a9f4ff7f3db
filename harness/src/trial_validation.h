// The checks that need plugins and data: plugin names (listing those available), plugin
// parameters (by creating each distinct configuration once), data files, input kinds, and
// world sizes against the launched ranks. Runs on every rank before any trial.
#pragma once

#include <vector>

#include "data_cache.h"
#include "experiment.h"
#include "plugin_registry.h"
#include "trial.h"

namespace harness {

// Throws InputError listing every problem.
void validate_trials(const Experiment& experiment, const std::vector<Trial>& trials,
                     const PluginRegistry& plugins, DataCache& data, int launched_ranks);

}  // namespace harness
