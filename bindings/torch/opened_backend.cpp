#include "opened_backend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>

#include "compose/hierarchical_params.h"
#include "hierarchical_communicator.h"
#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"

namespace harness::torch_binding {
namespace {

std::string environment(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

// Where the plugins are: HARNESS_PLUGIN_PATH, then this build's plugin folder.
std::vector<std::string> plugin_directories() {
  std::vector<std::string> directories = plugin_search_path({});
  directories.push_back(HARNESS_TORCH_PLUGIN_DIR);
  return directories;
}

// The plugins that link the harness's own LibTorch: never loaded into PyTorch's process, whose
// torch is another (their libraries would clash with it).
bool carries_libtorch(const std::string& plugin) { return plugin == "torch_gloo"; }

// The plugins one could name instead, by their file names (none is loaded to list them), and
// the composition where a plugin is not a level of one.
std::string available(bool with_composition) {
  static const std::regex pattern("libharness_comm_([A-Za-z0-9_]+)\\.so");
  std::set<std::string> names;
  if (with_composition) names.insert("hierarchical");
  for (const std::string& directory : plugin_directories()) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
      const std::string file = entry.path().filename().string();
      std::smatch match;
      if (std::regex_match(file, match, pattern) && !carries_libtorch(match[1])) names.insert(match[1]);
    }
  }
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : ", ") + name;
  return listed;
}

struct OpenedPlugin {
  const PluginHandle* handle;  // in a registry of the discovery's, which outlives it
  plugin::CommunicatorCapabilities capabilities;
  std::shared_ptr<plugin::Communicator> communicator;
};

// Where a plugin's name and parameters came from, for messages; whether it is a level.
struct Settings {
  std::string name, params;
  bool level = false;
};
const Settings kTopLevel{"HARNESS_BACKEND", "HARNESS_BACKEND_PARAMS"};
Settings level_settings(const std::string& level) {
  return {"HARNESS_BACKEND_PARAMS /" + level, "HARNESS_BACKEND_PARAMS /" + level + "_params",
          true};
}

// Where the plugins were looked for, and what was found there, for the messages.
struct Discovery {
  std::vector<PluginRegistry>& registries;
  std::vector<std::string>& warnings;
};

// One plugin, loaded into the discovery's registries.
OpenedPlugin open_plugin(const std::string& name, const Json& params, const Settings& setting,
                         Discovery discovery) {
  if (carries_libtorch(name))
    throw std::runtime_error(setting.name + ": " + name +
                             " is the harness's own copy of PyTorch's gloo, for the harness's "
                             "command; inside PyTorch, use " +
                             (setting.level ? "ring" : "the gloo backend itself"));
  DiscoveryOptions only;
  only.only_file = "libharness_comm_" + name + ".so";
  const PluginRegistry& registry =
      discovery.registries.emplace_back(PluginRegistry::discover(plugin_directories(), only));
  for (const std::string& warning : registry.warnings())
    if (std::find(discovery.warnings.begin(), discovery.warnings.end(), warning) ==
        discovery.warnings.end())
      discovery.warnings.push_back(warning);
  const PluginHandle* handle = registry.find(plugin::PluginKind::kCommunicator, name);
  if (!handle) {
    const std::string why = registry.not_built_reason(plugin::PluginKind::kCommunicator, name);
    throw std::runtime_error(setting.name + ": " + name +
                             (why.empty() ? " is no communicator plugin (available: " +
                                                available(!setting.level) + ")"
                                          : " is not built: " + why));
  }
  OpenedPlugin opened{handle, communicator_capabilities(*handle), nullptr};
  if (!opened.capabilities.unavailable_reason.empty())
    throw std::runtime_error(name + ": " + opened.capabilities.unavailable_reason);
  if (!opened.capabilities.host_buffers)
    throw std::runtime_error(name + " reduces GPU buffers only; this group is CPU");
  try {
    opened.communicator = create_communicator(*handle, params);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(setting.params + " for " + name + ": " + e.what());
  }
  return opened;
}

template <class T>
std::vector<T> common_to(const std::vector<T>& first, const std::vector<T>& second) {
  std::vector<T> both;
  for (const T& item : first)
    if (std::find(second.begin(), second.end(), item) != second.end()) both.push_back(item);
  return both;
}

// Two levels and the across-hosts plugin once more over the whole group, for the collectives
// that have no two-level form here: what the composition offers is what every part offers.
OpenedBackend open_hierarchical(const Json& params, SubgroupBootstrap subgroup_bootstrap,
                                std::vector<std::string>& warnings) {
  HierarchicalParams parsed;
  try {
    parsed = parse_hierarchical_params(params);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("HARNESS_BACKEND_PARAMS for hierarchical: " + std::string(e.what()));
  }
  if (parsed.intra == "hierarchical" || parsed.inter == "hierarchical")
    throw std::runtime_error(
        "HARNESS_BACKEND_PARAMS for hierarchical: a level is a communicator plugin, not "
        "hierarchical itself");
  OpenedBackend opened;
  opened.registries.reserve(2);  // the handles point into them
  const Discovery discovery{opened.registries, warnings};
  const OpenedPlugin intra =
      open_plugin(parsed.intra, parsed.intra_params, level_settings("intra"), discovery);
  const OpenedPlugin inter =
      open_plugin(parsed.inter, parsed.inter_params, level_settings("inter"), discovery);
  // The same plugin and parameters as inter, which they passed: a second communicator of it.
  const std::shared_ptr<plugin::Communicator> whole =
      create_communicator(*inter.handle, parsed.inter_params);
  opened.capabilities = inter.capabilities;
  opened.capabilities.dtypes = common_to(intra.capabilities.dtypes, inter.capabilities.dtypes);
  opened.communicator = std::make_shared<HierarchicalCommunicator>(
      std::move(parsed), intra.communicator, inter.communicator, whole,
      std::move(subgroup_bootstrap));
  return opened;
}

}  // namespace

PluginChoice PluginChoice::from_environment() {
  PluginChoice choice;
  choice.name = environment("HARNESS_BACKEND", choice.name);
  choice.params = environment("HARNESS_BACKEND_PARAMS", choice.params);
  return choice;
}

OpenedBackend open_backend(const PluginChoice& choice, SubgroupBootstrap subgroup_bootstrap,
                           std::vector<std::string>& warnings) {
  Json params;
  try {
    params = Json::parse(choice.params);
  } catch (const std::exception& e) {
    throw std::runtime_error("HARNESS_BACKEND_PARAMS: not JSON (" + std::string(e.what()) + ")");
  }
  if (choice.name == "hierarchical")
    return open_hierarchical(params, std::move(subgroup_bootstrap), warnings);
  OpenedBackend opened;
  OpenedPlugin plugin = open_plugin(choice.name, params, kTopLevel, {opened.registries, warnings});
  opened.capabilities = std::move(plugin.capabilities);
  opened.communicator = std::move(plugin.communicator);
  return opened;
}

}  // namespace harness::torch_binding
