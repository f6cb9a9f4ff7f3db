// The TCP device a gloo group's pairs are opened on: the interface or host name given in the
// backend's params, else loopback when the whole group shares this host, else an address every
// peer reaches (peer_address.h). Shared by the gloo plugin and torch_gloo (PyTorch's own
// ProcessGroupGloo), which open their pairs the same way.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

#include <gloo/transport/device.h>

#include "harness/plugin/status.h"

namespace harness::plugins {

struct GroupDevice {
  std::shared_ptr<gloo::transport::Device> device;  // null where `status` says why
  plugin::Status status;
  std::string address;  // for describe(): "loopback", an address, "interface eth0"
};

// Collective over comm when neither interface nor hostname is given. `backend` names the
// plugin in the reasons.
GroupDevice group_device(const std::string& interface, const std::string& hostname,
                         MPI_Comm comm, const std::string& backend);

}  // namespace harness::plugins
