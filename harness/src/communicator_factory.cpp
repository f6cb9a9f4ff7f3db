#include "communicator_factory.h"

#include <stdexcept>

#include "mpi_runtime.h"

namespace harness {

std::shared_ptr<plugin::Communicator> create_communicator(const PluginHandle& plugin,
                                                          const Json& params) {
  plugin::Status status;
  auto communicator = create_plugin_object<plugin::Communicator>(
      plugin, plugin::kCreateCommunicatorSymbol, params.dump(), &status);
  if (!communicator) throw std::invalid_argument(status.message());
  return communicator;
}

plugin::CommunicatorCapabilities communicator_capabilities(const PluginHandle& plugin) {
  return plugin_capabilities<plugin::CommunicatorCapabilities>(
      plugin, plugin::kCommunicatorCapabilitiesSymbol);
}

std::shared_ptr<plugin::Communicator> join_group(const PluginHandle& plugin, const Json& params,
                                                 MPI_Comm comm) {
  auto communicator = create_communicator(plugin, params);
  plugin::GroupInit group;
  group.comm = comm;
  MPI_Comm_rank(comm, &group.rank);
  MPI_Comm_size(comm, &group.size);
  group.local_rank = local_rank(comm);
  group.params_json = params.dump();
  const plugin::Status status = communicator->init(group);
  if (!status.is_ok())
    throw GroupJoinError(plugin.name + " init: " + status.message(),
                         status.code() == plugin::StatusCode::kUnsupported);
  return communicator;
}

}  // namespace harness
