#include "trial/plugin_validation.h"

#include <tuple>

#include "loader/communicator_factory.h"
#include "spec/did_you_mean.h"
#include "trial/hierarchical_backend.h"

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
  const auto available = context.plugins.names(kind);
  const std::string list = available.empty() ? "none" : joined(available, ", ");
  context.add(field, "unknown " + std::string(plugin::plugin_kind_name(kind)) + " plugin \"" +
                         name + "\"" + did_you_mean(name, available) + " (available: " + list +
                         "; searched " + joined(context.plugins.directories(), ":") + ")");
  return nullptr;
}

namespace {

// The two levels' names and parameters, each checked as its own backend's would be.
std::vector<const PluginHandle*> check_hierarchical(ValidationContext& context,
                                                    const Json& params) {
  HierarchicalParams levels;
  try {
    levels = parse_hierarchical_params(params);
  } catch (const std::exception& e) {
    context.add_inside("backend_params", e.what());
    return {};
  }
  const PluginHandle* intra = find_plugin_or_report(context, plugin::PluginKind::kCommunicator,
                                                    "backend_params.intra", levels.intra);
  const PluginHandle* inter = find_plugin_or_report(context, plugin::PluginKind::kCommunicator,
                                                    "backend_params.inter", levels.inter);
  for (const auto& [handle, level, field] :
       {std::tuple{intra, &levels.intra_params, "backend_params.intra_params"},
        std::tuple{inter, &levels.inter_params, "backend_params.inter_params"}}) {
    if (!handle) continue;
    try {
      create_communicator(*handle, *level);
    } catch (const std::exception& e) {
      context.add_inside(field, e.what());
    }
  }
  if (!intra || !inter) return {};
  return {intra, inter};
}

}  // namespace

std::vector<const PluginHandle*> check_backend(ValidationContext& context,
                                               const std::string& backend, const Json& params) {
  if (backend == kHierarchicalBackend) return check_hierarchical(context, params);
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

}  // namespace harness
