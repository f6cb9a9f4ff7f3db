// Communicator plugins built for API 3, seen through this host's interface. API 4 appended the
// collectives to the Communicator and their list to CommunicatorCapabilities; an API 3 plugin's
// objects lack those slots and its capabilities symbol writes the shorter struct
// (CommunicatorCapabilitiesV3, the one register.h's macro writes when built for API 3). So the
// host reads that struct as it was, and wraps the plugin's communicator in one that forwards the
// methods API 3 has and answers the others with "does not support".
#pragma once

#include <memory>

#include "harness/plugin/communicator.h"

namespace harness {

// API 3 offered allreduce and broadcast.
plugin::CommunicatorCapabilities from_api3(plugin::CommunicatorCapabilitiesV3 capabilities);

std::shared_ptr<plugin::Communicator> api3_communicator(
    std::shared_ptr<plugin::Communicator> created);

}  // namespace harness
