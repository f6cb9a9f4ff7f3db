// A communicator written the way harness/plugin/version.h and register.h tell a user to write
// one for an API this host loads: HARNESS_PLUGIN_API_VERSION set before the headers (here by
// the build, once per version from kOldestApiVersion to kApiVersion), the class registered with
// HARNESS_REGISTER_COMMUNICATOR. The host must list it, validate trials on it and run them.
#include <mpi.h>

#include <string>

#include "harness/plugin/communicator.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::BufferView;
using harness::plugin::DType;
using harness::plugin::Status;

class UserCommunicator final : public harness::plugin::Communicator {
 public:
  static constexpr const char* kName = "user_api" HARNESS_PLUGIN_STR(HARNESS_PLUGIN_API_VERSION);
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription =
      "test plugin registered with the documented macros for its API version";

  // Every field the version's struct has, set away from its default, so that a host reading
  // another layout sees wrong values (or corrupts its heap) instead of passing by luck.
  static harness::plugin::CommunicatorCapabilities capabilities() {
    harness::plugin::CommunicatorCapabilities c;
    c.dtypes = {DType::kFloat32};
#if HARNESS_PLUGIN_API_VERSION >= 4
    c.collectives = {harness::plugin::Collective::kAllreduce,
                     harness::plugin::Collective::kBroadcast,
                     harness::plugin::Collective::kAllgather};
#endif
    return c;
  }

  explicit UserCommunicator(const nlohmann::json&) {}

  Status init(const harness::plugin::GroupInit& group) noexcept override {
    comm_ = group.comm;
    return Status::ok();
  }
  Status allreduce(BufferView buffer, const harness::plugin::AllreduceOptions&) noexcept override {
    MPI_Allreduce(MPI_IN_PLACE, buffer.data, static_cast<int>(buffer.count), MPI_FLOAT, MPI_SUM,
                  comm_);
    return Status::ok();
  }
  Status broadcast(BufferView buffer, int root) noexcept override {
    MPI_Bcast(buffer.data, static_cast<int>(buffer.bytes()), MPI_BYTE, root, comm_);
    return Status::ok();
  }
#if HARNESS_PLUGIN_API_VERSION >= 4
  Status allgather(BufferView input, BufferView output,
                   const harness::plugin::CollectiveOptions&) noexcept override {
    MPI_Allgather(input.data, static_cast<int>(input.count), MPI_FLOAT, output.data,
                  static_cast<int>(input.count), MPI_FLOAT, comm_);
    return Status::ok();
  }
#endif
  Status barrier() noexcept override {
    MPI_Barrier(comm_);
    return Status::ok();
  }
  std::string describe() const override { return kName; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace

HARNESS_REGISTER_COMMUNICATOR(UserCommunicator)
