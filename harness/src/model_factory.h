// Creating model plugins: the host owns input_dim (from the data), the user the rest.
#pragma once

#include <memory>
#include <string>

#include "harness/plugin/model.h"
#include "json.h"
#include "plugin_registry.h"
#include "tabular_data.h"

namespace harness {

// The model plugin's parameters with the host-owned fields filled in from the data: input_dim
// (features per step) and, for windowed data, window. Throws InputError when the user set a
// host-owned field to a conflicting value.
Json model_params_for(const Json& user_params, const DataSplit& data);

// Throws std::invalid_argument with the plugin's message on bad parameters.
std::shared_ptr<plugin::Model> create_model(const PluginHandle& plugin, const Json& params);

plugin::ModelCapabilities model_capabilities(const PluginHandle& plugin);

// Number of scalar parameters.
std::size_t parameter_count(plugin::Model& model);

std::string libtorch_version();

}  // namespace harness
