// Runs an experiment's trials in order under MPI: forms each trial's group, dispatches to the
// runner of the experiment's kind, and has rank 0 record and report every trial.
#pragma once

#include <string>
#include <vector>

#include "console_reporter.h"
#include "data_cache.h"
#include "experiment.h"
#include "plugin_registry.h"
#include "trial.h"

namespace harness {

struct SweepOptions {
  std::string results_base = "results";
  std::string resume_directory;       // non-empty: continue this folder
  std::vector<std::string> command;   // argv, for meta.json
  Verbosity verbosity = Verbosity::kNormal;
};

// Collective over MPI_COMM_WORLD. Returns the results folder (on rank 0; "" elsewhere).
std::string run_sweep(const Experiment& experiment, const std::vector<Trial>& trials,
                      const PluginRegistry& plugins, DataCache& data, const SweepOptions& options);

}  // namespace harness
