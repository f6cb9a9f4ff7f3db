#include "communicator_factory.h"

#include <algorithm>
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

GroupProblem backend_problem(const PluginHandle* backend, bool cuda_available, plugin::DType dtype) {
  if (!backend) return {"failed", "backend plugin not found on this rank"};
  const auto capabilities = communicator_capabilities(*backend);
  if (!capabilities.unavailable_reason.empty()) return {"skipped", capabilities.unavailable_reason};
  if (capabilities.requires_cuda && !cuda_available)
    return {"skipped", backend->name + " needs CUDA buffers and this process sees no GPU"};
  if (std::find(capabilities.dtypes.begin(), capabilities.dtypes.end(), dtype) == capabilities.dtypes.end())
    return {"skipped", backend->name + " does not support " + plugin::dtype_name(dtype)};
  return {};
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
