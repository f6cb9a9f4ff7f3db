// The gloo plugin's TCP device, made by the gloo library it links, where group_endpoint.h
// chose. (torch_gloo has its process group make its own.)
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

#include <gloo/transport/device.h>

#include "group_endpoint.h"

namespace harness::plugins {

struct GroupDevice {
  std::shared_ptr<gloo::transport::Device> device;  // null where `status` says why
  plugin::Status status;
  std::string address;
};

// Collective as group_endpoint.
GroupDevice group_device(const DeviceParams& params, MPI_Comm comm, const std::string& backend);

}  // namespace harness::plugins
