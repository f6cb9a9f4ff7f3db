#include "loader/plugin_registry.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "loader/plugin_file_checks.h"

namespace harness {

namespace fs = std::filesystem;

std::string open_plugin(const std::string& path, PluginHandle* handle) {
  auto library = std::make_shared<boost::dll::shared_library>();
  try {
    // RTLD_NOW: unresolved symbols fail here, not at the first call mid-trial.
    library->load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    return path + ": not a loadable plugin library: " + e.what();
  }
  if (!library->has(plugin::kInfoSymbol))
    return path + ": missing symbol " + plugin::kInfoSymbol + " (not a harness plugin)";
  const auto* info = library->get<const plugin::PluginInfo*() noexcept>(plugin::kInfoSymbol)();
  if (!info) return path + ": " + plugin::kInfoSymbol + " returned null";
  if (info->api_version < plugin::kOldestApiVersion || info->api_version > plugin::kApiVersion)
    return path + ": plugin API version " + std::to_string(info->api_version) +
           " but this harness speaks version " + std::to_string(plugin::kApiVersion) +
           " (and loads " + std::to_string(plugin::kOldestApiVersion) +
           " and later); rebuild the plugin against this harness";
  if (std::string(info->build_id ? info->build_id : "") != plugin::kBuildId)
    return path + ": plugin build id \"" + (info->build_id ? info->build_id : "") +
           "\" differs from the harness build id \"" + plugin::kBuildId +
           "\"; rebuild the plugin with the same compiler and flags";
  const bool model = info->kind == plugin::PluginKind::kModel;
  if (!model && info->kind != plugin::PluginKind::kCommunicator)
    return path + ": unknown plugin kind " + std::to_string(static_cast<unsigned>(info->kind));
  for (const char* symbol :
       model
           ? std::vector<const char*>{plugin::kCreateModelSymbol, plugin::kModelCapabilitiesSymbol}
           : std::vector<const char*>{plugin::kCreateCommunicatorSymbol,
                                      plugin::kCommunicatorCapabilitiesSymbol})
    if (!library->has(entry_symbol(symbol, info->api_version)))
      return path + ": " + plugin::plugin_kind_name(info->kind) + " plugin \"" +
             (info->name ? info->name : "?") + "\" is missing symbol " +
             entry_symbol(symbol, info->api_version);

  handle->name = info->name ? info->name : "";
  handle->kind = info->kind;
  handle->version = info->version ? info->version : "";
  handle->description = info->description ? info->description : "";
  handle->path = fs::absolute(path).lexically_normal().string();
  handle->api_version = info->api_version;
  handle->library = std::move(library);
  return {};
}

std::string entry_symbol(const char* host_symbol, std::uint32_t api_version) {
  const std::string name = host_symbol;
  return name.substr(0, name.rfind("_v") + 2) + std::to_string(api_version);
}

namespace {

std::string refusal(const std::string& what, const std::string& path, const std::string& reason) {
  return path + ": " + what + " refused: it " + reason +
         "; only its owner or root may be able to change plugins (chmod o-w, chown), or pass "
         "--allow-insecure-plugin-dir";
}

}  // namespace

PluginRegistry PluginRegistry::discover(const std::vector<std::string>& directories,
                                        DiscoveryOptions options) {
  PluginRegistry registry;
  registry.directories_ = directories;
  for (const auto& directory : directories) {
    std::error_code error;
    if (!fs::is_directory(directory, error)) continue;
    if (const auto reason = insecure_reason(directory);
        !reason.empty() && !options.allow_insecure) {
      registry.warnings_.push_back(refusal("plugin directory", directory, reason));
      continue;
    }
    std::vector<fs::path> candidates;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
      if (entry.path().extension() == ".so" &&
          (options.only_file.empty() || entry.path().filename() == options.only_file))
        candidates.push_back(entry.path());
      if (entry.path().extension() == ".not-built") registry.note_not_built(entry.path());
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& candidate : candidates) registry.consider(candidate.string(), options);
  }
  return registry;
}

// Nothing in a file runs before its name, permissions and exported symbols pass.
void PluginRegistry::consider(const std::string& path, DiscoveryOptions options) {
  if (!named_like_plugin(fs::path(path).filename().string())) {
    problems_.push_back(path +
                        ": ignored, not named like a plugin (libharness_comm_<name>.so or "
                        "libharness_model_<name>.so)");
    return;
  }
  // From here the file means to be a plugin: what keeps it from loading is always said, since
  // a built-in of the same name may be used in its place.
  if (const auto link = broken_link_reason(path); !link.empty()) {
    warnings_.push_back(path + ": ignored, it is " + link);
    return;
  }
  if (const auto reason = insecure_reason(path); !reason.empty() && !options.allow_insecure) {
    warnings_.push_back(refusal("plugin", path, reason));
    return;
  }
  if (const auto problem = check_exported_symbol(path, plugin::kInfoSymbol); !problem.empty()) {
    warnings_.push_back(path + ": ignored, " + problem);
    return;
  }
  PluginHandle handle;
  if (const std::string problem = open_plugin(path, &handle); !problem.empty()) {
    warnings_.push_back(problem);
  } else if (const PluginHandle* earlier = find(handle.kind, handle.name)) {
    // Earlier directories win, like PATH; always said, as a replaced backend changes results.
    warnings_.push_back(handle.path + ": ignored, " + plugin::plugin_kind_name(handle.kind) +
                        " \"" + handle.name + "\" is already loaded from " + earlier->path);
  } else {
    plugins_.push_back(std::move(handle));
  }
}

// The note's name says which plugin (libharness_comm_nccl.so.not-built), its first line why.
void PluginRegistry::note_not_built(const fs::path& note) {
  static const std::regex pattern("libharness_(comm|model)_([A-Za-z0-9_]+)\\.so\\.not-built");
  std::smatch match;
  const std::string file_name = note.filename().string();
  if (!std::regex_match(file_name, match, pattern)) return;
  std::ifstream in(note);
  std::string reason;
  std::getline(in, reason);
  constexpr std::size_t kLongestReason = 400;  // a note is a sentence, not a file to echo
  if (reason.size() > kLongestReason) reason = reason.substr(0, kLongestReason) + "...";
  if (reason.empty()) reason = "this build could not make it";
  not_built_.push_back({match[1] == "comm" ? plugin::PluginKind::kCommunicator
                                           : plugin::PluginKind::kModel,
                        match[2], reason});
}

std::string PluginRegistry::not_built_reason(plugin::PluginKind kind,
                                             const std::string& name) const {
  if (find(kind, name)) return {};
  for (const auto& note : not_built_)
    if (note.kind == kind && note.name == name) return note.reason;
  return {};
}

const PluginHandle* PluginRegistry::find(plugin::PluginKind kind, const std::string& name) const {
  for (const auto& p : plugins_)
    if (p.kind == kind && p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> PluginRegistry::names(plugin::PluginKind kind) const {
  std::vector<std::string> out;
  for (const auto& p : plugins_)
    if (p.kind == kind) out.push_back(p.name);
  return out;
}

namespace {

std::vector<std::string> environment_plugin_directories() {
  std::vector<std::string> directories;
  if (const char* env = std::getenv("HARNESS_PLUGIN_PATH")) {
    std::stringstream stream(env);
    std::string item;
    while (std::getline(stream, item, ':'))
      if (!item.empty()) directories.push_back(item);
  }
  return directories;
}

}  // namespace

std::vector<std::string> plugin_path_warnings() {
  std::vector<std::string> warnings;
  for (const auto& directory : environment_plugin_directories()) {
    std::error_code error;
    if (fs::is_directory(directory, error)) continue;
    warnings.push_back("HARNESS_PLUGIN_PATH entry " + directory + " skipped: " +
                       (fs::exists(directory, error) ? "not a directory" : "no such directory"));
  }
  return warnings;
}

std::vector<std::string> plugin_search_path(const std::vector<std::string>& flag_directories) {
  std::vector<std::string> path = flag_directories;
  for (auto& directory : environment_plugin_directories()) path.push_back(std::move(directory));
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) path.push_back((self.parent_path() / "plugins").string());
  return path;
}

}  // namespace harness
