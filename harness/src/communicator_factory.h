// Creating communicator plugins and joining them to a trial's group.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "harness/plugin/communicator.h"
#include "json.h"
#include "mpi_runtime.h"
#include "plugin_registry.h"

namespace harness {

// Throws std::invalid_argument with the plugin's message on bad parameters.
std::shared_ptr<plugin::Communicator> create_communicator(const PluginHandle& plugin,
                                                          const Json& params);

plugin::CommunicatorCapabilities communicator_capabilities(const PluginHandle& plugin);

// Why a trial cannot run on `backend` (nullptr: not found on this rank), as a problem every
// rank can see before anything is built: unavailable backend, CUDA needed but absent, or an
// element type it does not support. Empty status when it can run.
GroupProblem backend_problem(const PluginHandle* backend, bool cuda_available, plugin::DType dtype);

// A communicator's init failed; `unsupported` when the backend declined the configuration
// (the trial is then skipped rather than failed).
struct GroupJoinError : std::runtime_error {
  GroupJoinError(const std::string& message, bool unsupported)
      : std::runtime_error(message), unsupported(unsupported) {}
  bool unsupported;
};

// Creates and initialises a communicator on comm (collective). Throws GroupJoinError.
std::shared_ptr<plugin::Communicator> join_group(const PluginHandle& plugin, const Json& params,
                                                 MPI_Comm comm);

}  // namespace harness
