// What a loaded plugin says it can do, asked without creating it (and without LibTorch).
#pragma once

#include "harness/plugin/communicator.h"
#include "harness/plugin/model_capabilities.h"
#include "loader/plugin_registry.h"

namespace harness {

plugin::ModelCapabilities model_capabilities(const PluginHandle& plugin);
plugin::CommunicatorCapabilities communicator_capabilities(const PluginHandle& plugin);

}  // namespace harness
