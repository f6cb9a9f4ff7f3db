#include "loader/plugin_capabilities.h"

namespace harness {

plugin::ModelCapabilities model_capabilities(const PluginHandle& plugin) {
  return plugin_capabilities<plugin::ModelCapabilities>(plugin, plugin::kModelCapabilitiesSymbol);
}

plugin::CommunicatorCapabilities communicator_capabilities(const PluginHandle& plugin) {
  return plugin_capabilities<plugin::CommunicatorCapabilities>(
      plugin, plugin::kCommunicatorCapabilitiesSymbol);
}

}  // namespace harness
