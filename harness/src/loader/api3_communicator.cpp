#include "loader/api3_communicator.h"

#include <utility>

namespace harness {
namespace {

// Calls only the methods whose slots API 3 has; the collectives of API 4 stay the base's.
class Api3Communicator final : public plugin::Communicator {
 public:
  explicit Api3Communicator(std::shared_ptr<plugin::Communicator> inner)
      : inner_(std::move(inner)) {}

  plugin::Status init(const plugin::GroupInit& group) noexcept override {
    return inner_->init(group);
  }
  plugin::Status allreduce(plugin::BufferView buffer,
                           const plugin::AllreduceOptions& options) noexcept override {
    return inner_->allreduce(buffer, options);
  }
  plugin::Status broadcast(plugin::BufferView buffer, int root) noexcept override {
    return inner_->broadcast(buffer, root);
  }
  plugin::Status barrier() noexcept override { return inner_->barrier(); }
  plugin::Status synchronize() noexcept override { return inner_->synchronize(); }
  std::string describe() const override { return inner_->describe(); }
  void* provide_memory(std::size_t bytes) noexcept override {
    return inner_->provide_memory(bytes);
  }
  void release_memory(void* memory) noexcept override { inner_->release_memory(memory); }

 private:
  std::shared_ptr<plugin::Communicator> inner_;
};

}  // namespace

plugin::CommunicatorCapabilities from_api3(plugin::CommunicatorCapabilitiesV3 capabilities) {
  plugin::CommunicatorCapabilities out;
  out.host_buffers = capabilities.host_buffers;
  out.cuda_buffers = capabilities.cuda_buffers;
  out.requires_cuda = capabilities.requires_cuda;
  out.dtypes = std::move(capabilities.dtypes);
  out.unavailable_reason = std::move(capabilities.unavailable_reason);
  return out;  // collectives: the default, allreduce and broadcast, what API 3 offered
}

std::shared_ptr<plugin::Communicator> api3_communicator(
    std::shared_ptr<plugin::Communicator> created) {
  return std::make_shared<Api3Communicator>(std::move(created));
}

}  // namespace harness
