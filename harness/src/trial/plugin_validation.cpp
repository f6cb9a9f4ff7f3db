#include "trial/plugin_validation.h"

#include <algorithm>

#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "spec/did_you_mean.h"
#include "trial/composed_backend.h"

namespace harness {
namespace {

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

}  // namespace

const PluginHandle* find_plugin_or_report(ValidationContext& context, plugin::PluginKind kind,
                                          const std::string& field, const std::string& name) {
  if (const PluginHandle* found = context.plugins.find(kind, name)) return found;
  // Left out by this build: its trials are skipped, saying why, when they run.
  if (!context.plugins.not_built_reason(kind, name).empty()) return nullptr;
  const auto available = context.plugins.names(kind);
  const std::string list = available.empty() ? "none" : joined(available, ", ");
  context.add(field, "unknown " + std::string(plugin::plugin_kind_name(kind)) + " plugin \"" +
                         name + "\"" + did_you_mean(name, available) + " (available: " + list +
                         "; searched " + joined(context.plugins.directories(), ":") + ")");
  return nullptr;
}

namespace {

// A composed backend's levels: each named plugin found and its parameters checked as that
// backend's own would be.
std::vector<const PluginHandle*> check_composed(ValidationContext& context,
                                                const ComposedBackend& composed,
                                                const Json& params) {
  std::vector<ComposedLevel> levels;
  try {
    levels = composed_levels(composed, params);
  } catch (const std::exception& e) {
    context.add_inside("backend_params", e.what());
    return {};
  }
  std::vector<const PluginHandle*> plugins;
  for (const ComposedLevel& level : levels) {
    const std::string field = "backend_params." + level.field;
    const PluginHandle* plugin =
        find_plugin_or_report(context, plugin::PluginKind::kCommunicator, field, level.plugin);
    if (!plugin) continue;
    try {
      create_communicator(*plugin, level.params);
    } catch (const std::exception& e) {
      context.add_inside(field + "_params", e.what());
    }
    plugins.push_back(plugin);
  }
  if (plugins.size() != levels.size()) return {};
  return plugins;
}

}  // namespace

std::vector<const PluginHandle*> check_backend(ValidationContext& context,
                                               const std::string& backend, const Json& params) {
  if (const ComposedBackend* composed = find_composed_backend(backend))
    return check_composed(context, *composed, params);
  const PluginHandle* plugin =
      find_plugin_or_report(context, plugin::PluginKind::kCommunicator, "backend", backend);
  if (!plugin) return {};
  if (!context.first_time(context.part.pointer + " backend " + backend + params.dump()))
    return {plugin};
  try {
    create_communicator(*plugin, params);
  } catch (const std::exception& e) {
    context.add_inside("backend_params", e.what());
  }
  return {plugin};
}

std::vector<plugin::Collective> offered_collectives(
    const std::string& backend, const std::vector<const PluginHandle*>& communicators) {
  if (find_composed_backend(backend))
    return {plugin::Collective::kAllreduce, plugin::Collective::kBroadcast};
  return communicator_capabilities(*communicators.front()).collectives;
}

void check_offered(ValidationContext& context, const std::string& field,
                   const std::string& backend,
                   const std::vector<const PluginHandle*>& communicators,
                   const std::vector<plugin::Collective>& needed, const std::string& why) {
  if (communicators.empty()) return;  // an unknown backend: check_backend said so
  const auto offered = offered_collectives(backend, communicators);
  std::vector<std::string> missing, names;
  for (const plugin::Collective c : needed)
    if (std::find(offered.begin(), offered.end(), c) == offered.end())
      missing.push_back(plugin::collective_name(c));
  if (missing.empty()) return;
  for (const plugin::Collective c : offered) names.push_back(plugin::collective_name(c));
  context.add(field, "backend \"" + backend + "\" does not support " + joined(missing, " or ") +
                         " (it offers " + joined(names, ", ") + ")" + why);
}

void check_reduces(ValidationContext& context, const std::string& field,
                   const std::vector<const PluginHandle*>& communicators, plugin::DType wire,
                   const std::string& remedy) {
  for (const PluginHandle* communicator : communicators) {
    const auto dtypes = communicator_capabilities(*communicator).dtypes;
    if (std::find(dtypes.begin(), dtypes.end(), wire) != dtypes.end()) continue;
    std::string listed;
    for (plugin::DType dtype : dtypes)
      listed += (listed.empty() ? "" : ", ") + std::string(plugin::dtype_name(dtype));
    context.add(field, std::string("backend \"") + communicator->name + "\" does not reduce " +
                           plugin::dtype_name(wire) + " (it lists " + listed + "); " + remedy +
                           " or a backend that lists " + plugin::dtype_name(wire));
  }
}

void check_compression(ValidationContext& context,
                       const std::vector<const PluginHandle*>& communicators,
                       Compression compression) {
  check_reduces(context, "compression", communicators, wire_dtype(compression),
                "use compression none");
}

}  // namespace harness
