#include "model_factory.h"

#include <torch/version.h>

#include <stdexcept>

#include "input_error.h"

namespace harness {

namespace {

void set_host_owned(Json& params, const char* key, std::size_t value, const char* what) {
  if (params.contains(key) &&
      !(params[key].is_number_integer() && params[key].get<std::size_t>() == value))
    throw InputError(std::string("/settings/model_params/") + key + ": set from the data set's " +
                     std::to_string(value) + " " + what + "; remove it or make it " +
                     std::to_string(value) + ", got " + params[key].dump());
  params[key] = value;
}

}  // namespace

Json model_params_for(const Json& user_params, const DataSplit& data) {
  Json params = user_params;
  set_host_owned(params, "input_dim", data.features, "features");
  if (data.sequence) set_host_owned(params, "window", data.window, "window length");
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
