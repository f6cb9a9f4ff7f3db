// A communicator whose every call fails or throws inside the plugin: the host must get
// Status messages, never an exception across the boundary.
#include <stdexcept>

#include "harness/plugin/communicator.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::Status;

class ThrowingCommunicator final : public harness::plugin::Communicator {
 public:
  static constexpr const char* kName = "throwing";
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription = "test plugin: allreduce throws";
  static harness::plugin::CommunicatorCapabilities capabilities() { return {}; }

  explicit ThrowingCommunicator(const nlohmann::json& json) {
    harness::plugin::Params params(json, {"fail_init"});
    fail_init_ = params.integer("fail_init", 0, 0, 1) == 1;
  }
  Status init(const harness::plugin::GroupInit&) noexcept override {
    return fail_init_ ? Status::unavailable("configured to fail init") : Status::ok();
  }
  Status allreduce(harness::plugin::BufferView,
                   const harness::plugin::AllreduceOptions&) noexcept override {
    return harness::plugin::guarded(
        []() -> Status { throw std::runtime_error("boom inside plugin"); });
  }
  Status broadcast(harness::plugin::BufferView, int) noexcept override { return Status::ok(); }
  Status barrier() noexcept override { return Status::ok(); }

 private:
  bool fail_init_ = false;
};

}  // namespace

HARNESS_REGISTER_COMMUNICATOR(ThrowingCommunicator)
