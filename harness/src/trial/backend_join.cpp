#include "trial/backend_join.h"

#include <algorithm>

#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "mpi/trial_groups.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

// Creates the communicator and runs its (collective) init on the group.
GroupProblem init_on_group(const TrialContext& context, const Json& params, JoinedBackend* joined) {
  try {
    joined->communicator = create_communicator(*joined->plugin, params);
    plugin::GroupInit group;
    group.comm = context.comm;
    group.rank = context.rank;
    group.size = context.size;
    group.local_rank = local_rank(context.comm);
    WatchedOperation watched("backend init", 0, group.size);
    const plugin::Status status = joined->communicator->init(group);
    if (status.is_ok()) return {};
    const bool declined = status.code() == plugin::StatusCode::kUnsupported;
    return {declined ? TrialStatus::kSkipped : TrialStatus::kFailed,
            joined->plugin->name + " init: " + status.message()};
  } catch (const std::exception& e) {
    return {TrialStatus::kFailed, e.what()};
  }
}

}  // namespace

GroupProblem backend_problem(const PluginHandle* backend, bool cuda_available,
                             plugin::DType dtype) {
  if (!backend) return {TrialStatus::kFailed, "backend plugin not found on this rank"};
  const auto capabilities = communicator_capabilities(*backend);
  if (!capabilities.unavailable_reason.empty())
    return {TrialStatus::kSkipped, capabilities.unavailable_reason};
  if (capabilities.requires_cuda && !cuda_available)
    return {TrialStatus::kSkipped,
            backend->name + " needs CUDA buffers and this process sees no GPU"};
  const auto& dtypes = capabilities.dtypes;
  if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end())
    return {TrialStatus::kSkipped,
            backend->name + " does not support " + plugin::dtype_name(dtype)};
  return {};
}

JoinedBackend join_backend(const TrialContext& context, const std::string& backend,
                           const Json& params, plugin::DType dtype, bool cuda_available) {
  JoinedBackend joined;
  joined.plugin = context.plugins->find(plugin::PluginKind::kCommunicator, backend);
  joined.problem =
      agree_on_problem(context.comm, backend_problem(joined.plugin, cuda_available, dtype));
  if (joined.problem.any()) return joined;
  joined.on_cuda = communicator_capabilities(*joined.plugin).requires_cuda;
  joined.problem = agree_on_problem(context.comm, init_on_group(context, params, &joined));
  return joined;
}

Json describe_backend(const JoinedBackend& backend) {
  return {{"name", backend.plugin->name},
          {"version", backend.plugin->version},
          {"algorithm", backend.communicator->describe()}};
}

}  // namespace harness
