#include "trial/backend_join.h"

#include <algorithm>
#include <functional>

#include "harness/plugin/mpi_bootstrap.h"
#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "mpi/trial_groups.h"
#include "mpi/watchdog.h"
#include "trial/composed_backend.h"

namespace harness {
namespace {

// A communicator with the group's bootstrap, which it may use until it is destroyed: both owned
// by one object that every copy of the communicator's handle keeps alive (an aliasing
// shared_ptr), its members destroyed in reverse order, the communicator before the bootstrap.
struct CommunicatorWithBootstrap {
  std::unique_ptr<plugin::MpiBootstrap> bootstrap;
  std::shared_ptr<plugin::Communicator> communicator;
};

// Creates the communicator and runs its (collective) init on the group.
GroupProblem init_on_group(const TrialContext& context,
                           const std::function<std::shared_ptr<plugin::Communicator>()>& create,
                           PluginJoin join, JoinedBackend* joined) {
  try {
    auto owner = std::make_shared<CommunicatorWithBootstrap>();
    owner->bootstrap = std::make_unique<plugin::MpiBootstrap>(context.comm);
    owner->communicator = create();
    plugin::GroupInit group;
    group.comm = join == PluginJoin::kMpi ? context.comm : MPI_COMM_NULL;
    group.rank = context.rank;
    group.size = context.size;
    group.local_rank = local_rank(context.comm);
    group.bootstrap = owner->bootstrap.get();
    plugin::Communicator* communicator = owner->communicator.get();
    joined->communicator = std::shared_ptr<plugin::Communicator>(std::move(owner), communicator);
    WatchedOperation watched(context.watchdog, "backend init", 0, group.size);
    const plugin::Status status = joined->communicator->init(group);
    if (status.is_ok()) return {};
    const bool declined = status.code() == plugin::StatusCode::kUnsupported;
    // A plugin that needs MPI declines a group without it, and speaks of PyTorch's group.
    const std::string joined_how =
        join == PluginJoin::kBootstrap
            ? " (it was joined through the bootstrap alone, as inside PyTorch: setting join "
              "\"bootstrap\"; join \"mpi\" gives it MPI's communicator)"
            : "";
    return {declined ? TrialStatus::kSkipped : TrialStatus::kFailed,
            joined->name + " init: " + status.message() + joined_how};
  } catch (const std::exception& e) {
    return {TrialStatus::kFailed, e.what()};
  }
}

}  // namespace

GroupProblem backend_problem(const PluginRegistry& plugins, const std::string& name,
                             bool cuda_available, plugin::DType dtype) {
  const PluginHandle* backend = plugins.find(plugin::PluginKind::kCommunicator, name);
  if (!backend) {
    const std::string reason = plugins.not_built_reason(plugin::PluginKind::kCommunicator, name);
    if (!reason.empty()) return {TrialStatus::kSkipped, name + " is not built: " + reason};
    return {TrialStatus::kFailed, "backend plugin " + name + " not found on this rank"};
  }
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

// Every level must be a host-buffer backend that takes the element type.
GroupProblem levels_problem(const PluginRegistry& plugins,
                            const std::vector<ComposedLevel>& levels, const std::string& composed,
                            bool cuda_available, plugin::DType dtype) {
  for (const ComposedLevel& level : levels) {
    GroupProblem problem = backend_problem(plugins, level.plugin, cuda_available, dtype);
    if (problem.any()) return problem;
    const PluginHandle* plugin = plugins.find(plugin::PluginKind::kCommunicator, level.plugin);
    if (communicator_capabilities(*plugin).requires_cuda)
      return {TrialStatus::kSkipped, composed + " composes host-buffer backends; " +
                                         level.plugin + " reduces device buffers"};
  }
  return {};
}

JoinedBackend join_composed(const ComposedBackend& composed, const TrialContext& context,
                            const Json& params, plugin::DType dtype, bool cuda_available) {
  JoinedBackend joined;
  joined.name = composed.name;
  std::vector<ComposedLevel> levels;
  try {
    levels = composed_levels(composed, params);
  } catch (const std::exception& e) {
    joined.problem = {TrialStatus::kFailed, composed.name + ": " + e.what()};
    return joined;
  }
  std::vector<const PluginHandle*> plugins;
  for (const ComposedLevel& level : levels) {
    plugins.push_back(context.plugins->find(plugin::PluginKind::kCommunicator, level.plugin));
    joined.levels.push_back(level_label(level));
  }
  joined.plugin = plugins.back();  // the outermost level: the one across hosts
  joined.problem = agree_on_problem(
      context.comm,
      levels_problem(*context.plugins, levels, composed.name, cuda_available, dtype),
      context.watchdog);
  if (joined.problem.any()) return joined;
  for (const PluginHandle* plugin : plugins)
    joined.version += (joined.version.empty() ? "" : "+") + plugin->version;
  std::shared_ptr<ComposedCommunicator> communicator;
  const auto create = [&] {
    std::vector<std::shared_ptr<plugin::Communicator>> communicators;
    for (std::size_t i = 0; i < levels.size(); ++i)
      communicators.push_back(create_communicator(*plugins[i], levels[i].params));
    communicator = composed.compose(std::move(communicators), params);
    return std::shared_ptr<plugin::Communicator>(communicator);
  };
  joined.problem = agree_on_problem(
      context.comm, init_on_group(context, create, PluginJoin::kMpi, &joined), context.watchdog);
  if (!joined.problem.any()) joined.within_hosts = communicator->within_hosts();
  return joined;
}

}  // namespace

JoinedBackend join_backend(const TrialContext& context, const std::string& backend,
                           const Json& params, plugin::DType dtype, bool cuda_available,
                           PluginJoin join) {
  if (const ComposedBackend* composed = find_composed_backend(backend))
    return join_composed(*composed, context, params, dtype, cuda_available);
  JoinedBackend joined;
  joined.name = backend;
  joined.plugin = context.plugins->find(plugin::PluginKind::kCommunicator, backend);
  joined.problem = agree_on_problem(
      context.comm, backend_problem(*context.plugins, backend, cuda_available, dtype),
      context.watchdog);
  if (joined.problem.any()) return joined;
  joined.version = joined.plugin->version;
  joined.on_cuda = communicator_capabilities(*joined.plugin).requires_cuda;
  const auto create = [&] {
    return create_communicator(*joined.plugin, params);
  };
  joined.problem = agree_on_problem(context.comm, init_on_group(context, create, join, &joined),
                                    context.watchdog);
  return joined;
}

BackendRecord describe_backend(const JoinedBackend& backend) {
  return {backend.name, backend.version, backend.communicator->describe(), std::nullopt,
          backend.levels, backend.within_hosts};
}

}  // namespace harness
