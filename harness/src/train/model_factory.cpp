#include "train/model_factory.h"

#include <stdexcept>

namespace harness {

std::shared_ptr<plugin::Model> create_model(const PluginHandle& plugin, const Json& params) {
  plugin::Status status;
  auto model = create_plugin_object<plugin::Model>(plugin, plugin::kCreateModelSymbol,
                                                   params.dump(), &status);
  if (!model) throw std::invalid_argument(status.message());
  return model;
}

std::size_t parameter_count(plugin::Model& model) {
  std::size_t count = 0;
  for (const auto& p : model.parameters()) count += static_cast<std::size_t>(p.numel());
  return count;
}

}  // namespace harness
