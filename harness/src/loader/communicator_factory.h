// Creating communicator plugins (joining a group is trial/backend_join.h's job).
#pragma once

#include <memory>

#include "common/json.h"
#include "harness/plugin/communicator.h"
#include "loader/plugin_registry.h"

namespace harness {

// Throws std::invalid_argument with the plugin's message on bad parameters.
std::shared_ptr<plugin::Communicator> create_communicator(const PluginHandle& plugin,
                                                          const Json& params);

}  // namespace harness
