// The hierarchical backend inside PyTorch: shm (by default) within each host and a plugin
// that crosses hosts (ring) between them, the harness command's two-level allreduce
// (compose/two_level_allreduce.h) over levels formed through the c10d store instead of MPI.
// Hosts are told apart as the plugins tell them (host name and boot); every host must hold the
// same number of the group's ranks. The collectives without a two-level form here (broadcast,
// allgather, reduce_scatter, alltoall, barrier) go through the across-hosts plugin over the
// whole group.
#pragma once

#include <memory>
#include <string>

#include "compose/hierarchical_params.h"
#include "compose/two_level_allreduce.h"
#include "harness/plugin/communicator.h"
#include "opened_backend.h"

namespace harness::torch_binding {

class HierarchicalCommunicator final : public plugin::Communicator {
 public:
  // `whole`: a second communicator of the across-hosts plugin, joined over the whole group.
  HierarchicalCommunicator(HierarchicalParams params, std::shared_ptr<plugin::Communicator> intra,
                           std::shared_ptr<plugin::Communicator> inter,
                           std::shared_ptr<plugin::Communicator> whole,
                           SubgroupBootstrap subgroup_bootstrap);
  ~HierarchicalCommunicator() override;

  plugin::Status init(const plugin::GroupInit& group) noexcept override;
  plugin::Status allreduce(plugin::BufferView buffer,
                           const plugin::AllreduceOptions& options) noexcept override {
    if (!two_level_) return plugin::Status::unavailable("hierarchical: allreduce before init");
    return two_level_->run(buffer, options);
  }
  plugin::Status broadcast(plugin::BufferView buffer, int root) noexcept override {
    return whole_->broadcast(buffer, root);
  }
  plugin::Status barrier() noexcept override { return whole_->barrier(); }
  plugin::Status reduce_scatter(plugin::BufferView input, plugin::BufferView output,
                                const plugin::CollectiveOptions& options) noexcept override {
    return whole_->reduce_scatter(input, output, options);
  }
  plugin::Status allgather(plugin::BufferView input, plugin::BufferView output,
                           const plugin::CollectiveOptions& options) noexcept override {
    return whole_->allgather(input, output, options);
  }
  plugin::Status alltoall(plugin::BufferView input, plugin::BufferView output,
                          const plugin::CollectiveOptions& options) noexcept override {
    return whole_->alltoall(input, output, options);
  }
  std::string describe() const override;

 private:
  // This rank's place: which host (in order of the hosts' first ranks), its rank there, and
  // how many ranks each host holds; unsupported when the hosts hold different numbers.
  plugin::Status find_hosts(plugin::Bootstrap& group);
  // A level's init, agreed over the whole group: a failure on one rank fails every rank.
  plugin::Status join_level(plugin::Communicator& level, const plugin::GroupInit& init,
                            plugin::Bootstrap& group, const std::string& name);

  HierarchicalParams params_;
  SubgroupBootstrap subgroup_bootstrap_;
  // Each level's rendezvous, kept while its communicator lives (destroyed after them).
  std::unique_ptr<plugin::Bootstrap> host_bootstrap_, across_bootstrap_, whole_bootstrap_;
  std::shared_ptr<plugin::Communicator> intra_, inter_, whole_;
  std::unique_ptr<TwoLevelAllreduce> two_level_;  // once every level joined
  int host_ = 0, hosts_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace harness::torch_binding
