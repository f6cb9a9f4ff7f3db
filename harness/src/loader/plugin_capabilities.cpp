#include "loader/plugin_capabilities.h"

#include "loader/api3_communicator.h"

namespace harness {

plugin::ModelCapabilities model_capabilities(const PluginHandle& plugin) {
  return plugin_capabilities<plugin::ModelCapabilities>(plugin, plugin::kModelCapabilitiesSymbol);
}

plugin::CommunicatorCapabilities communicator_capabilities(const PluginHandle& plugin) {
  if (plugin.api_version == 3)
    return from_api3(plugin_capabilities<plugin::CommunicatorCapabilitiesV3>(
        plugin, plugin::kCommunicatorCapabilitiesSymbol));
  return plugin_capabilities<plugin::CommunicatorCapabilities>(
      plugin, plugin::kCommunicatorCapabilitiesSymbol);
}

}  // namespace harness
