// The "torch_gloo" backend: PyTorch's own ProcessGroupGloo (LibTorch's c10d), the process group
// a PyTorch job gets from init_process_group("gloo"), called from C++ as DDP's reducer calls it:
// each collective queued to the group's worker threads and awaited. Where the "gloo" plugin
// drives Debian's gloo library directly, this one carries the process group's own cost per call
// (its queue, its algorithm choice, its tensors), which is what a replay of a PyTorch job on
// gloo must reproduce. Its pairs open where the gloo plugin's do (group_endpoint.h), on a device
// the process group's own gloo makes; it joins over MPI (MpiC10dStore). It builds against
// Debian's LibTorch 1.13 and against PyPI's 2.x (whose gloo is inside LibTorch: gloo's headers
// only declare the device it is handed).
// Params: interface or hostname (default: loopback when the whole group shares a host, else an
// address every peer reaches), timeout_ms, threads (the group's worker threads; PyTorch's
// default is 2).
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "../gloo/group_endpoint.h"
#include "../gloo/mpi_store.h"
#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "mpi_c10d_store.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::DType;
using plugin::Status;

namespace {

at::ScalarType scalar_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat64: return at::kDouble;
    case DType::kFloat16: return at::kHalf;
    default: return at::kFloat;
  }
}

// The endpoint's device, made by the process group's gloo.
std::shared_ptr<::gloo::transport::Device> device_for(const GroupEndpoint& endpoint) {
  return endpoint.interface.empty()
             ? c10d::ProcessGroupGloo::createDeviceForHostname(endpoint.hostname)
             : c10d::ProcessGroupGloo::createDeviceForInterface(endpoint.interface);
}

// The buffer as a tensor over the same memory: the process group reduces it in place.
std::vector<at::Tensor> as_tensors(const BufferView& buffer) {
  return {at::from_blob(buffer.data, {static_cast<std::int64_t>(buffer.count)},
                        at::TensorOptions().dtype(scalar_type(buffer.dtype)))};
}

}  // namespace

class TorchGlooCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "torch_gloo";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "PyTorch's ProcessGroupGloo (LibTorch c10d), as init_process_group(\"gloo\") gives a "
      "PyTorch job: allreduce, broadcast; MPI rendezvous";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = {DType::kFloat32, DType::kFloat64,
                                                    DType::kFloat16};  // gloo has no bf16

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = kDTypes;
    return c;
  }

  explicit TorchGlooCommunicator(const nlohmann::json& json) {
    plugin::Params params(json, {"interface", "hostname", "timeout_ms", "threads"});
    device_params_ = read_device_params(params);
    threads_ = static_cast<int>(params.integer("threads", 2, 1, 64));
  }

  // The pairs close with the process group (group_endpoint.h: LeaveTogether).
  ~TorchGlooCommunicator() override {
    leave_.leave();
    group_.reset();
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    if (Status s = plugin::require_mpi_group(group, "torch_gloo"); !s.is_ok()) return s;
    return plugin::guarded([&] {
      size_ = group.size;
      GroupEndpoint endpoint = group_endpoint(device_params_, group.comm, "torch_gloo");
      if (!endpoint.status.is_ok()) return endpoint.status;
      address_ = endpoint.address;
      auto options = c10d::ProcessGroupGloo::Options::create(device_params_.timeout);
      options->devices = {device_for(endpoint)};
      options->threads = threads_;
      MpiStore rendezvous(group.comm, device_params_.timeout);
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(
          c10::make_intrusive<MpiC10dStore>(rendezvous), group.rank, group.size, options);
      rendezvous.finish();
      leave_.enter(group.comm);
      return Status::ok();
    });
  }

  // ProcessGroupGloo has no average: DDP divides and sums, and so does this.
  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return leave_.watch(plugin::guarded([&] {
      std::vector<at::Tensor> tensors = as_tensors(buffer);
      if (options.op == plugin::ReduceOp::kAvg) tensors[0].div_(size_);
      group_->allreduce(tensors)->wait();
      return Status::ok();
    }));
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    if (buffer.count == 0 || size_ == 1) return Status::ok();
    return leave_.watch(plugin::guarded([&] {
      std::vector<at::Tensor> tensors = as_tensors(buffer);
      c10d::BroadcastOptions options;
      options.rootRank = root;
      group_->broadcast(tensors, options)->wait();
      return Status::ok();
    }));
  }

  Status barrier() noexcept override {
    if (!group_) return Status::invalid_argument("communicator not initialised");
    return leave_.watch(plugin::guarded([&] {
      group_->barrier()->wait();
      return Status::ok();
    }));
  }

  std::string describe() const override {
    return "PyTorch " TORCH_VERSION " ProcessGroupGloo over tcp (" + address_ + ")";
  }

 private:
  Status check(const BufferView& buffer) const {
    if (!group_) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "torch_gloo", plugin::DeviceKind::kCpu, kDTypes);
  }

  DeviceParams device_params_;
  std::string address_;
  int threads_ = 2;
  int size_ = 1;
  LeaveTogether leave_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::TorchGlooCommunicator)
