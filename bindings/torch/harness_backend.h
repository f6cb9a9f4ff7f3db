// torch.distributed's backend "harness" (a c10d::Backend, PyTorch 2.x): the collectives of a
// PyTorch job (DDP's bucket allreduces and parameter broadcasts, FSDP2's all_gather_into_tensor
// and reduce_scatter_tensor, ZeroRedundancyOptimizer's broadcasts, barriers) run on one of the
// harness's communicator plugins, chosen by HARNESS_BACKEND (default shm) with
// HARNESS_BACKEND_PARAMS (a JSON object of the plugin's parameters, default {}), or on the
// hierarchical composition of two (opened_backend.h). The ranks join
// through the c10d store torch.distributed hands the group (store_bootstrap.h), never MPI: a
// plugin that sends through MPI declines, saying so. CPU tensors only. Every group, the world's
// and each dist.new_group's, is a backend of its own with its own communicator.
#pragma once

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collective_queue.h"
#include "harness/plugin/communicator.h"
#include "opened_backend.h"
#include "store_bootstrap.h"

namespace harness::torch_binding {

class HarnessBackend final : public c10d::Backend {
 public:
  // Collective over the group (through `store`): every rank loads and joins the same plugin,
  // or every rank throws, with the reason.
  HarnessBackend(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                      std::chrono::milliseconds timeout, const PluginChoice& choice);
  ~HarnessBackend() override;

  const std::string getBackendName() const override { return "harness"; }
  const std::string& plugin_name() const { return choice_.name; }
  std::string describe() const;

  c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor>& tensors,
                                           const c10d::AllreduceOptions& options) override;
  c10::intrusive_ptr<c10d::Work> broadcast(std::vector<at::Tensor>& tensors,
                                           const c10d::BroadcastOptions& options) override;
  c10::intrusive_ptr<c10d::Work> allgather(std::vector<std::vector<at::Tensor>>& outputs,
                                           std::vector<at::Tensor>& inputs,
                                           const c10d::AllgatherOptions& options) override;
  c10::intrusive_ptr<c10d::Work> _allgather_base(at::Tensor& output, at::Tensor& input,
                                                 const c10d::AllgatherOptions& options) override;
  c10::intrusive_ptr<c10d::Work> reduce_scatter(std::vector<at::Tensor>& outputs,
                                                std::vector<std::vector<at::Tensor>>& inputs,
                                                const c10d::ReduceScatterOptions& options) override;
  c10::intrusive_ptr<c10d::Work> _reduce_scatter_base(
      at::Tensor& output, at::Tensor& input, const c10d::ReduceScatterOptions& options) override;
  c10::intrusive_ptr<c10d::Work> alltoall_base(at::Tensor& output, at::Tensor& input,
                                               std::vector<int64_t>& output_split_sizes,
                                               std::vector<int64_t>& input_split_sizes,
                                               const c10d::AllToAllOptions& options) override;
  c10::intrusive_ptr<c10d::Work> barrier(const c10d::BarrierOptions& options) override;

  // The tensors of one type reduced as one flat buffer (one plugin call, as gloo does).
  c10::intrusive_ptr<c10d::Work> allreduce_coalesced(
      std::vector<at::Tensor>& tensors, const c10d::AllreduceCoalescedOptions& options) override;

  // What the plugin API has no counterpart for: a clear error naming the plugin and the call.
  c10::intrusive_ptr<c10d::Work> reduce(std::vector<at::Tensor>& tensors,
                                        const c10d::ReduceOptions& options) override;
  c10::intrusive_ptr<c10d::Work> gather(std::vector<std::vector<at::Tensor>>& outputs,
                                        std::vector<at::Tensor>& inputs,
                                        const c10d::GatherOptions& options) override;
  c10::intrusive_ptr<c10d::Work> scatter(std::vector<at::Tensor>& outputs,
                                         std::vector<std::vector<at::Tensor>>& inputs,
                                         const c10d::ScatterOptions& options) override;
  c10::intrusive_ptr<c10d::Work> send(std::vector<at::Tensor>& tensors, int dst_rank,
                                      int tag) override;
  c10::intrusive_ptr<c10d::Work> recv(std::vector<at::Tensor>& tensors, int src_rank,
                                      int tag) override;

 private:
  [[noreturn]] void unsupported(const std::string& call) const;
  // The one tensor of a call, checked: on the CPU, contiguous.
  const at::Tensor& single(const std::vector<at::Tensor>& tensors, const char* call) const;
  plugin::BufferView reduction_view(const at::Tensor& tensor, const char* call) const;
  void check_host_tensor(const at::Tensor& tensor, const char* call) const;
  std::optional<plugin::DType> carrier_for(std::size_t bytes) const;
  // `blocks`: the collective moves the tensor in this many equal blocks (alltoall: the world
  // size), which the carrying type must keep whole.
  bool needs_padding(const at::Tensor& tensor, std::size_t blocks = 1) const;
  plugin::BufferView bytes_view(const at::Tensor& tensor, const char* call,
                                std::size_t blocks = 1) const;
  plugin::BufferView view_like(const at::Tensor& tensor, const plugin::BufferView& like,
                               const char* call) const;
  void require(plugin::Collective collective) const;
  // An allgather of `input` through a copy padded to whole fp32 elements; block r lands in
  // blocks[r] (uint8 views of the outputs).
  c10::intrusive_ptr<c10d::Work> allgather_padded(c10d::OpType type, const at::Tensor& input,
                                                  std::vector<at::Tensor> blocks,
                                                  std::vector<at::Tensor> outputs);
  // Integer sums (allreduce, reduce_scatter): through the widest float the plugin adds, with a
  // check every rank makes alike that the sum was exact.
  c10::intrusive_ptr<c10d::Work> integer_sum(c10d::OpType type, const char* call,
                                             const at::Tensor& input, const at::Tensor& output,
                                             std::function<void()> then = {});
  plugin::CollectiveOptions reduce_op(c10d::ReduceOp op, at::ScalarType type,
                                      const char* call) const;
  c10::intrusive_ptr<c10d::Work> launch(c10d::OpType type, const char* call,
                                        std::vector<at::Tensor> outputs, CollectiveQueue::Run run);

  PluginChoice choice_;
  std::shared_ptr<StoreBootstrap> bootstrap_;
  // Its communicator is shared with the queue's calls, so that a call left behind keeps it alive.
  OpenedBackend opened_;
  std::unique_ptr<CollectiveQueue> queue_;
};

}  // namespace harness::torch_binding
