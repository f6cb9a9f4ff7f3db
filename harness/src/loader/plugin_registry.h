// Finds, checks and loads plugins from the plugin directories. Libraries are loaded once and
// never unloaded; every object a plugin creates holds a reference to its library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "harness/plugin/status.h"
#include "harness/plugin/version.h"

namespace harness {

struct PluginHandle {
  std::string name;
  plugin::PluginKind kind;
  std::string version;
  std::string description;
  std::string path;
  std::uint32_t api_version = plugin::kApiVersion;  // what it was built for
  std::shared_ptr<boost::dll::shared_library> library;
};

// The name of an entry point (given as this host's, "harness_create_model_v4") as a plugin of
// `api_version` exports it ("harness_create_model_v3").
std::string entry_symbol(const char* host_symbol, std::uint32_t api_version);

// Opens one library and checks its info symbol, API version, build id and the entry points of
// its kind. Returns an error message (empty on success) and fills handle.
std::string open_plugin(const std::string& path, PluginHandle* handle);

struct DiscoveryOptions {
  bool allow_insecure = false;  // load from directories and files others could have written
  // When set, the only plugin library considered (a file name, libharness_comm_shm.so): a
  // process that must not run the others' constructors (PyTorch's, where a plugin linked with
  // another LibTorch would clash) loads just the one it uses.
  std::string only_file;
};

class PluginRegistry {
 public:
  struct NotBuilt {  // a shipped plugin this build left out, and why
    plugin::PluginKind kind;
    std::string name, reason;
  };

  // Scans each directory for plugin libraries (libharness_{comm,model}_<name>.so). Before a
  // library is loaded (which runs its constructors) its name, permissions (plugin_file_checks.h)
  // and exported symbols are checked. Files that fail are listed in problems() (not named like
  // plugins: shown with -v) or warnings() (named like a plugin but broken, refused as insecure,
  // or shadowed by an earlier directory: always shown), and not loaded.
  static PluginRegistry discover(const std::vector<std::string>& directories,
                                 DiscoveryOptions options = {});

  const PluginHandle* find(plugin::PluginKind kind, const std::string& name) const;
  // Why this build left out a plugin it ships (the note libharness_<kind>_<name>.so.not-built
  // that the build wrote in its place), or empty: found, or never a plugin of this build.
  std::string not_built_reason(plugin::PluginKind kind, const std::string& name) const;
  std::vector<std::string> names(plugin::PluginKind kind) const;
  const std::vector<PluginHandle>& plugins() const { return plugins_; }
  const std::vector<NotBuilt>& not_built() const { return not_built_; }
  const std::vector<std::string>& problems() const { return problems_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  const std::vector<std::string>& directories() const { return directories_; }

 private:
  void consider(const std::string& path, DiscoveryOptions options);
  void note_not_built(const std::filesystem::path& note);

  std::vector<PluginHandle> plugins_;
  std::vector<NotBuilt> not_built_;
  std::vector<std::string> problems_;
  std::vector<std::string> warnings_;
  std::vector<std::string> directories_;
};

// The default search path: --plugin-dir values, then HARNESS_PLUGIN_PATH (colon separated),
// then the "plugins" folder beside the executable.
std::vector<std::string> plugin_search_path(const std::vector<std::string>& flag_directories);
// HARNESS_PLUGIN_PATH entries that are no directory (a typo, a file): said, never silent.
std::vector<std::string> plugin_path_warnings();

// Creates an object through a plugin's create symbol (this host's name for it). The returned
// shared_ptr keeps the library loaded for as long as the object lives.
template <class Interface>
std::shared_ptr<Interface> create_plugin_object(const PluginHandle& plugin, const char* symbol,
                                                const std::string& params_json,
                                                plugin::Status* status) {
  using Create = Interface*(const char*, plugin::Status*) noexcept;
  auto* create = plugin.library->get<Create>(entry_symbol(symbol, plugin.api_version));
  Interface* object = create(params_json.c_str(), status);
  if (!object) {
    if (status->is_ok()) *status = plugin::Status::internal("plugin returned no object");
    return nullptr;
  }
  auto library = plugin.library;
  return std::shared_ptr<Interface>(object, [library](Interface* p) { delete p; });
}

// Calls a plugin's capabilities symbol (this host's name for it) with the struct of the
// plugin's API.
template <class Capabilities>
Capabilities plugin_capabilities(const PluginHandle& plugin, const char* symbol) {
  Capabilities capabilities;
  plugin.library->get<void(Capabilities*) noexcept>(entry_symbol(symbol, plugin.api_version))(
      &capabilities);
  return capabilities;
}

}  // namespace harness
