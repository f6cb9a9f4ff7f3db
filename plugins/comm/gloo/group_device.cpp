#include "group_device.h"

#include <gloo/transport/tcp/device.h>

namespace harness::plugins {

GroupDevice group_device(const DeviceParams& params, MPI_Comm comm, const std::string& backend) {
  GroupEndpoint endpoint = group_endpoint(params, comm, backend);
  GroupDevice chosen{nullptr, endpoint.status, endpoint.address};
  if (!endpoint.status.is_ok()) return chosen;
  gloo::transport::tcp::attr attr;
  attr.iface = endpoint.interface;
  attr.hostname = endpoint.hostname;
  chosen.device = gloo::transport::tcp::CreateDevice(attr);
  return chosen;
}

}  // namespace harness::plugins
