#include "loader/communicator_factory.h"

#include <stdexcept>
#include <utility>

#include "loader/api3_communicator.h"

namespace harness {

std::shared_ptr<plugin::Communicator> create_communicator(const PluginHandle& plugin,
                                                          const Json& params) {
  plugin::Status status;
  auto communicator = create_plugin_object<plugin::Communicator>(
      plugin, plugin::kCreateCommunicatorSymbol, params.dump(), &status);
  if (!communicator) throw std::invalid_argument(status.message());
  return plugin.api_version == 3 ? api3_communicator(std::move(communicator)) : communicator;
}

}  // namespace harness
