#include "group_device.h"

#include <gloo/transport/tcp/device.h>

#include "harness/plugin/peer_address.h"

namespace harness::plugins {

GroupDevice group_device(const std::string& interface, const std::string& hostname,
                         MPI_Comm comm) {
  GroupDevice chosen;
  gloo::transport::tcp::attr attr;
  if (!interface.empty()) {
    attr.iface = interface;
    chosen.address = "interface " + interface;
  } else if (!hostname.empty()) {
    attr.hostname = hostname;
    chosen.address = hostname;
  } else {
    attr.hostname = plugin::address_for_group(comm, &chosen.why);
    if (attr.hostname.empty()) return chosen;
    chosen.address = attr.hostname == plugin::kLoopback ? "loopback" : attr.hostname;
  }
  chosen.device = gloo::transport::tcp::CreateDevice(attr);
  return chosen;
}

}  // namespace harness::plugins
