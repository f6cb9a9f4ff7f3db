// Creating model plugins (the Model interface needs LibTorch's headers).
#pragma once

#include <memory>
#include <string>

#include "common/json.h"
#include "harness/plugin/model.h"
#include "loader/plugin_registry.h"

namespace harness {

// Throws std::invalid_argument with the plugin's message on bad parameters.
std::shared_ptr<plugin::Model> create_model(const PluginHandle& plugin, const Json& params);

// Number of scalar parameters.
std::size_t parameter_count(plugin::Model& model);

}  // namespace harness
