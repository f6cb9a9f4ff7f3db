// What HARNESS_BACKEND names, opened in this process and not yet joined: one communicator
// plugin, or the hierarchical composition of two (hierarchical_communicator.h), with what it
// offers. Only the plugins it names are loaded: the others may carry a LibTorch of their own.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/plugin/bootstrap.h"
#include "harness/plugin/communicator.h"
#include "loader/plugin_registry.h"

namespace harness::torch_binding {

struct PluginChoice {
  std::string name = "shm";   // HARNESS_BACKEND
  std::string params = "{}";  // HARNESS_BACKEND_PARAMS
  static PluginChoice from_environment();
};

// A bootstrap over some of the group's ranks: `scope` names the subgroup (the same string on
// each of its ranks, different from every other subgroup's), `rank` and `size` are within it.
using SubgroupBootstrap =
    std::function<std::unique_ptr<plugin::Bootstrap>(const std::string& scope, int rank, int size)>;

struct OpenedBackend {
  // Declared first, destroyed last: the communicators' code lives in these plugins.
  std::vector<PluginRegistry> registries;
  plugin::CommunicatorCapabilities capabilities;
  std::shared_ptr<plugin::Communicator> communicator;
};

// Throws std::runtime_error saying what is wrong and what to do instead. `warnings` receives
// what looking for the plugins found in their folders (a plugin refused or shadowed), each
// once, whether or not it throws: the reason a plugin was not found is often there.
OpenedBackend open_backend(const PluginChoice& choice, SubgroupBootstrap subgroup_bootstrap,
                           std::vector<std::string>& warnings);

}  // namespace harness::torch_binding
