// A communicator built for API 3, the oldest this host loads: it exports the API 3 entry points
// and writes API 3's capabilities struct (without the list of collectives). The host must load
// it, read its capabilities as API 3 laid them out, and answer the collectives API 3 lacked
// itself, never through slots the plugin's objects do not have.
// Written by hand, as a plugin compiled against API 3's own headers was; user_api_plugin.cpp is
// the same API built through today's headers and registration macros, as a user would build it.
#define HARNESS_PLUGIN_API_VERSION 3
#include <mpi.h>

#include <string>
#include <vector>

#include "harness/plugin/communicator.h"
#include "harness/plugin/register.h"

namespace {

// CommunicatorCapabilities as API 3 laid it out.
struct CapabilitiesApi3 {
  bool host_buffers = true;
  bool cuda_buffers = false;
  bool requires_cuda = false;
  std::vector<harness::plugin::DType> dtypes;
  std::string unavailable_reason;
};

class Api3Communicator final : public harness::plugin::Communicator {
 public:
  harness::plugin::Status init(const harness::plugin::GroupInit& group) noexcept override {
    comm_ = group.comm;
    return harness::plugin::Status::ok();
  }
  harness::plugin::Status allreduce(harness::plugin::BufferView buffer,
                                    const harness::plugin::AllreduceOptions&) noexcept override {
    MPI_Allreduce(MPI_IN_PLACE, buffer.data, static_cast<int>(buffer.count), MPI_FLOAT, MPI_SUM,
                  comm_);
    return harness::plugin::Status::ok();
  }
  harness::plugin::Status broadcast(harness::plugin::BufferView buffer, int root) noexcept override {
    MPI_Bcast(buffer.data, static_cast<int>(buffer.bytes()), MPI_BYTE, root, comm_);
    return harness::plugin::Status::ok();
  }
  harness::plugin::Status barrier() noexcept override {
    MPI_Barrier(comm_);
    return harness::plugin::Status::ok();
  }
  std::string describe() const override { return "api3 MPI_Allreduce"; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace

extern "C" HARNESS_PLUGIN_EXPORT const harness::plugin::PluginInfo*
harness_plugin_info_v1() noexcept {
  static const harness::plugin::PluginInfo info{
      3,      harness::plugin::kBuildId, "api3",
      harness::plugin::PluginKind::kCommunicator, "0.0.1",
      "test plugin built for plugin API 3"};
  return &info;
}

extern "C" HARNESS_PLUGIN_EXPORT harness::plugin::Communicator* harness_create_communicator_v3(
    const char*, harness::plugin::Status*) noexcept {
  return new Api3Communicator();
}

extern "C" HARNESS_PLUGIN_EXPORT void harness_communicator_capabilities_v3(
    CapabilitiesApi3* out) noexcept {
  out->dtypes = {harness::plugin::DType::kFloat32};
}
