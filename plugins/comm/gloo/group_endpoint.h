// Where a gloo group's pairs open: the interface or host name given in the backend's params,
// else loopback when the whole group shares this host, else an address every peer reaches
// (peer_address.h). Shared by the gloo plugin and torch_gloo (PyTorch's own ProcessGroupGloo),
// which choose alike; each makes its TCP device with its own gloo (torch_gloo through the
// process group's factories, since the gloo inside a LibTorch from PyPI is its own copy and
// takes only devices it made).
#pragma once

#include <mpi.h>

#include <chrono>
#include <string>

#include "harness/plugin/params.h"
#include "harness/plugin/status.h"

namespace harness::plugins {

// Exactly one of interface and hostname is set where `status` is ok.
struct GroupEndpoint {
  std::string interface, hostname;
  plugin::Status status;
  std::string address;  // for describe(): "loopback", an address, "interface eth0"
};

// The params both backends take for their pairs: interface or hostname (not both), timeout_ms.
struct DeviceParams {
  std::string interface, hostname;
  std::chrono::milliseconds timeout{30000};
};
DeviceParams read_device_params(plugin::Params& params);

// Collective over comm when neither interface nor hostname is given. `backend` names the
// plugin in the reasons.
GroupEndpoint group_endpoint(const DeviceParams& params, MPI_Comm comm,
                             const std::string& backend);

// gloo's algorithms send "ready" notifications to their neighbours, so a rank that closes its
// pairs while a neighbour is still finishing the last call makes that neighbour fail with
// "Connection closed by peer" (seen under load at 3-4 ranks). The group therefore leaves
// together: a barrier before the pairs close, unless a call failed (then the peers may never
// arrive and the barrier would hang).
class LeaveTogether {
 public:
  void enter(MPI_Comm comm) { MPI_Comm_dup(comm, &comm_); }
  // A call's status, remembered when it failed.
  plugin::Status watch(plugin::Status status) {
    failed_ = failed_ || !status.is_ok();
    return status;
  }
  // Collective; call before the pairs close. Once entered, once.
  void leave() noexcept;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool failed_ = false;
};

}  // namespace harness::plugins
