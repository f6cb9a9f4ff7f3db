#include "trial/backend_join.h"

#include <algorithm>
#include <functional>

#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "mpi/trial_groups.h"
#include "mpi/watchdog.h"
#include "trial/hierarchical_backend.h"

namespace harness {
namespace {

// Creates the communicator and runs its (collective) init on the group.
GroupProblem init_on_group(const TrialContext& context,
                           const std::function<std::shared_ptr<plugin::Communicator>()>& create,
                           JoinedBackend* joined) {
  try {
    joined->communicator = create();
    plugin::GroupInit group;
    group.comm = context.comm;
    group.rank = context.rank;
    group.size = context.size;
    group.local_rank = local_rank(context.comm);
    WatchedOperation watched(context.watchdog, "backend init", 0, group.size);
    const plugin::Status status = joined->communicator->init(group);
    if (status.is_ok()) return {};
    const bool declined = status.code() == plugin::StatusCode::kUnsupported;
    return {declined ? TrialStatus::kSkipped : TrialStatus::kFailed,
            joined->name + " init: " + status.message()};
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

namespace {

// Both levels must be host-buffer backends that take the element type.
GroupProblem hierarchical_problem(const PluginHandle* intra, const PluginHandle* inter,
                                  bool cuda_available, plugin::DType dtype) {
  for (const PluginHandle* level : {intra, inter}) {
    GroupProblem problem = backend_problem(level, cuda_available, dtype);
    if (problem.any()) return problem;
    if (communicator_capabilities(*level).requires_cuda)
      return {TrialStatus::kSkipped, "hierarchical composes host-buffer backends; " + level->name +
                                         " reduces device buffers"};
  }
  return {};
}

JoinedBackend join_hierarchical(const TrialContext& context, const Json& params,
                                plugin::DType dtype, bool cuda_available) {
  JoinedBackend joined;
  joined.name = kHierarchicalBackend;
  HierarchicalParams levels;
  try {
    levels = parse_hierarchical_params(params);
  } catch (const std::exception& e) {
    joined.problem = {TrialStatus::kFailed, std::string("hierarchical: ") + e.what()};
    return joined;
  }
  const PluginHandle* intra =
      context.plugins->find(plugin::PluginKind::kCommunicator, levels.intra);
  joined.plugin = context.plugins->find(plugin::PluginKind::kCommunicator, levels.inter);
  joined.problem = agree_on_problem(
      context.comm, hierarchical_problem(intra, joined.plugin, cuda_available, dtype),
      context.watchdog);
  if (joined.problem.any()) return joined;
  joined.version = intra->version + "+" + joined.plugin->version;
  const auto create = [&] {
    return make_hierarchical(create_communicator(*intra, levels.intra_params),
                             create_communicator(*joined.plugin, levels.inter_params), levels);
  };
  joined.problem =
      agree_on_problem(context.comm, init_on_group(context, create, &joined), context.watchdog);
  return joined;
}

}  // namespace

JoinedBackend join_backend(const TrialContext& context, const std::string& backend,
                           const Json& params, plugin::DType dtype, bool cuda_available) {
  if (backend == kHierarchicalBackend)
    return join_hierarchical(context, params, dtype, cuda_available);
  JoinedBackend joined;
  joined.name = backend;
  joined.plugin = context.plugins->find(plugin::PluginKind::kCommunicator, backend);
  joined.problem = agree_on_problem(
      context.comm, backend_problem(joined.plugin, cuda_available, dtype), context.watchdog);
  if (joined.problem.any()) return joined;
  joined.version = joined.plugin->version;
  joined.on_cuda = communicator_capabilities(*joined.plugin).requires_cuda;
  const auto create = [&] {
    return create_communicator(*joined.plugin, params);
  };
  joined.problem =
      agree_on_problem(context.comm, init_on_group(context, create, &joined), context.watchdog);
  return joined;
}

BackendRecord describe_backend(const JoinedBackend& backend) {
  return {backend.name, backend.version, backend.communicator->describe(), std::nullopt};
}

}  // namespace harness
