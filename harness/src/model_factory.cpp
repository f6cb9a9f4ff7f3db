#include "model_factory.h"

#include <torch/version.h>

#include <stdexcept>

#include "input_error.h"

namespace harness {

Json model_params_for(const Json& user_params, std::size_t input_dim) {
  Json params = user_params;
  if (params.contains("input_dim") &&
      !(params["input_dim"].is_number_integer() && params["input_dim"].get<std::size_t>() == input_dim))
    throw InputError("/settings/model_params/input_dim: set from the data set's " +
                     std::to_string(input_dim) + " features; remove it or make it " +
                     std::to_string(input_dim) + ", got " + params["input_dim"].dump());
  params["input_dim"] = input_dim;
  return params;
}

std::shared_ptr<plugin::Model> create_model(const PluginHandle& plugin, const Json& params) {
  plugin::Status status;
  auto model = create_plugin_object<plugin::Model>(plugin, plugin::kCreateModelSymbol,
                                                   params.dump(), &status);
  if (!model) throw std::invalid_argument(status.message());
  return model;
}

plugin::ModelCapabilities model_capabilities(const PluginHandle& plugin) {
  return plugin_capabilities<plugin::ModelCapabilities>(plugin, plugin::kModelCapabilitiesSymbol);
}

std::size_t parameter_count(plugin::Model& model) {
  std::size_t count = 0;
  for (const auto& p : model.parameters()) count += static_cast<std::size_t>(p.numel());
  return count;
}

std::string libtorch_version() { return TORCH_VERSION; }

}  // namespace harness
