// meta.json: what a reader needs to trust or reproduce a results folder.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "common/json.h"
#include "loader/plugin_registry.h"
#include "spec/experiment.h"

namespace harness {

// Collective over world: gathers each rank's host and CPU binding. Complete on rank 0.
Json collect_run_metadata(const Experiment& experiment, const std::vector<std::string>& command,
                          const PluginRegistry& plugins, MPI_Comm world);

}  // namespace harness
