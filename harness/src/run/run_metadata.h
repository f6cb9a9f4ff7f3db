// meta.json's description of the job, taken as it starts (run/run_meta.h).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "loader/plugin_registry.h"
#include "run/run_meta.h"
#include "spec/experiment.h"

namespace harness {

// Collective over world: gathers each rank's host and CPU binding. Complete on rank 0.
RunMeta collect_run_metadata(const Experiment& experiment, const std::vector<std::string>& command,
                             const PluginRegistry& plugins, MPI_Comm world);

}  // namespace harness
