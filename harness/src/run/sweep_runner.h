// Runs an experiment's trials in order under MPI: forms each trial's group, hands the trial
// to its kind, and has rank 0 store the record and hand it to the sinks and the console.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "results/console_reporter.h"
#include "run/run_meta.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

struct SweepOptions {
  std::string results_base = "results";
  std::string resume_directory;      // non-empty: continue this folder
  std::vector<std::string> command;  // argv, for meta.json
  Verbosity verbosity = Verbosity::kNormal;
  // The world sizes whose ranks share CPUs and what the experiment does with them
  // (run/oversubscribed_worlds.h): the console's line and meta.json's field; empty when none.
  struct {
    std::string note;
    std::optional<OversubscribedMark> mark;
  } oversubscribed;
};

// Collective over MPI_COMM_WORLD. Returns the results folder (on rank 0; "" elsewhere).
std::string run_sweep(const Experiment& experiment, const std::vector<Trial>& trials,
                      const PluginRegistry& plugins, DataCache& data, const SweepOptions& options);

}  // namespace harness
