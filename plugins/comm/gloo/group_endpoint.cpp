#include "group_endpoint.h"

#include <netdb.h>
#include <sys/socket.h>

#include <stdexcept>

#include "harness/plugin/peer_address.h"

namespace harness::plugins {
namespace {

// gloo's device crashes (a null dereference, Debian's libgloo) on a host name that does not
// resolve, so the name is resolved here first and refused with its reason.
std::string unresolvable(const std::string& hostname) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int error = getaddrinfo(hostname.c_str(), nullptr, &hints, &found);
  if (found) freeaddrinfo(found);
  return error == 0 ? std::string() : gai_strerror(error);
}

}  // namespace

DeviceParams read_device_params(plugin::Params& params) {
  DeviceParams read;
  read.interface = params.string("interface", "");
  read.hostname = params.string("hostname", "");
  read.timeout = std::chrono::milliseconds(params.integer("timeout_ms", 30000, 1, 86400000));
  if (!read.interface.empty() && !read.hostname.empty())
    throw std::invalid_argument("/interface: give interface or hostname, not both");
  return read;
}

void LeaveTogether::leave() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || comm_ == MPI_COMM_NULL) return;
  if (!failed_) MPI_Barrier(comm_);
  MPI_Comm_free(&comm_);
}

GroupEndpoint group_endpoint(const DeviceParams& params, MPI_Comm comm,
                             const std::string& backend) {
  GroupEndpoint chosen;
  if (!params.interface.empty()) {
    chosen.interface = params.interface;
    chosen.address = "interface " + params.interface;
  } else if (!params.hostname.empty()) {
    if (const std::string why = unresolvable(params.hostname); !why.empty()) {
      chosen.status = plugin::Status::invalid_argument(
          "backend_params hostname \"" + params.hostname + "\" does not resolve (" + why +
          "): give a name or address of this host");
      return chosen;
    }
    chosen.hostname = params.hostname;
    chosen.address = params.hostname;
  } else {
    std::string why;
    chosen.hostname = plugin::address_for_group(comm, &why);
    if (chosen.hostname.empty()) {
      chosen.status = plugin::Status::unavailable(
          backend + " across hosts: " + why + "; give backend_params interface or hostname");
      return chosen;
    }
    chosen.address = chosen.hostname == plugin::kLoopback ? "loopback" : chosen.hostname;
  }
  return chosen;
}

}  // namespace harness::plugins
