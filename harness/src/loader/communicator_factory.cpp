#include "loader/communicator_factory.h"

#include <stdexcept>

namespace harness {

std::shared_ptr<plugin::Communicator> create_communicator(const PluginHandle& plugin,
                                                          const Json& params) {
  plugin::Status status;
  auto communicator = create_plugin_object<plugin::Communicator>(
      plugin, plugin::kCreateCommunicatorSymbol, params.dump(), &status);
  if (!communicator) throw std::invalid_argument(status.message());
  return communicator;
}

}  // namespace harness
