#include "trial/hierarchical_backend.h"

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "compose/hierarchical_params.h"
#include "compose/two_level_allreduce.h"
#include "harness/plugin/mpi_bootstrap.h"
#include "harness/plugin/mpi_broadcast.h"

namespace harness {
namespace {

std::vector<ComposedLevel> levels_of(const Json& params) {
  const HierarchicalParams parsed = parse_hierarchical_params(params);
  return {{"intra", parsed.intra, parsed.intra_params}, {"inter", parsed.inter, parsed.inter_params}};
}

// Whether any rank of `comm` failed: every rank takes the same branch after it.
bool any_failed(const plugin::Status& status, MPI_Comm comm) {
  int failed = status.is_ok() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

class HierarchicalCommunicator final : public ComposedCommunicator {
 public:
  HierarchicalCommunicator(std::shared_ptr<plugin::Communicator> intra,
                           std::shared_ptr<plugin::Communicator> inter, HierarchicalParams params)
      : intra_(std::move(intra)), inter_(std::move(inter)), params_(std::move(params)) {}

  ~HierarchicalCommunicator() override {
    two_level_.reset();
    intra_.reset();
    inter_.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (MPI_Comm* comm : {&host_, &across_, &group_})
      if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
  }

  plugin::Status init(const plugin::GroupInit& group) noexcept override {
    size_ = group.size;
    MPI_Comm_dup(group.comm, &group_);
    MPI_Comm_split_type(group_, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host_);
    MPI_Comm_rank(host_, &local_rank_);
    MPI_Comm_size(host_, &local_size_);
    int fewest = 0, most = 0;
    MPI_Allreduce(&local_size_, &fewest, 1, MPI_INT, MPI_MIN, group_);
    MPI_Allreduce(&local_size_, &most, 1, MPI_INT, MPI_MAX, group_);
    if (fewest != most)
      return plugin::Status::unsupported("hierarchical: the hosts hold " + std::to_string(fewest) +
                                         " to " + std::to_string(most) +
                                         " ranks of the group; it needs the same number on each");
    MPI_Comm_split(group_, local_rank_, group.rank, &across_);
    int across_rank = 0, hosts = 0;
    MPI_Comm_rank(across_, &across_rank);
    MPI_Comm_size(across_, &hosts);
    // Each level's init is collective over its own ranks: a failure on one host must stop
    // every rank before the next level starts.
    host_bootstrap_ = std::make_unique<plugin::MpiBootstrap>(host_);
    across_bootstrap_ = std::make_unique<plugin::MpiBootstrap>(across_);
    const plugin::Status within = intra_->init(
        {host_, local_rank_, local_size_, local_rank_, host_bootstrap_.get()});
    if (any_failed(within, group_))
      return within.is_ok() ? plugin::Status::internal("hierarchical: another host's " +
                                                       params_.intra + " init failed")
                            : with_level_prefix(within, params_.intra + " (within the host): ");
    const plugin::Status across =
        inter_->init({across_, across_rank, hosts, 0, across_bootstrap_.get()});
    if (!across.is_ok()) return with_level_prefix(across, params_.inter + " (across hosts): ");
    two_level_ = std::make_unique<TwoLevelAllreduce>(
        Levels{intra_.get(), inter_.get(), local_rank_, local_size_, size_});
    return plugin::Status::ok();
  }

  plugin::Status allreduce(plugin::BufferView buffer,
                           const plugin::AllreduceOptions& options) noexcept override {
    if (!two_level_) return plugin::Status::unavailable("hierarchical: allreduce before init");
    return two_level_->run(buffer, options);
  }

  // The intra-host level's memory: its two passes are most of the work within a host, and the
  // backend across hosts reduces a slice of any host memory.
  void* provide_memory(std::size_t bytes) noexcept override {
    return intra_->provide_memory(bytes);
  }
  void release_memory(void* memory) noexcept override { intra_->release_memory(memory); }

  plugin::Status broadcast(plugin::BufferView buffer, int root) noexcept override {
    return plugin::mpi_broadcast_bytes(buffer, root, size_, group_);
  }

  plugin::Status barrier() noexcept override {
    return plugin::mpi_status(MPI_Barrier(group_), "MPI_Barrier");
  }

  std::string describe() const override {
    return "hierarchical: " + params_.intra + " within hosts (" + intra_->describe() + "; by " +
           within_hosts() + "), " + params_.inter + " across (" + inter_->describe() + ")";
  }

  // The cost model reads it from the record (scripts/harness_analysis/labels.py).
  std::string within_hosts() const override {
    return two_level_ ? two_level_->within_hosts() : "allreduce";
  }

 private:
  // Each level's rendezvous, kept while its communicator lives (the destructor resets those
  // first).
  std::unique_ptr<plugin::Bootstrap> host_bootstrap_, across_bootstrap_;
  std::shared_ptr<plugin::Communicator> intra_, inter_;
  HierarchicalParams params_;
  MPI_Comm group_ = MPI_COMM_NULL, host_ = MPI_COMM_NULL, across_ = MPI_COMM_NULL;
  int size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::unique_ptr<TwoLevelAllreduce> two_level_;  // once both levels joined
};

}  // namespace

const ComposedBackend& hierarchical_backend() {
  static const ComposedBackend backend{
      "hierarchical", levels_of,
      [](std::vector<std::shared_ptr<plugin::Communicator>> levels, const Json& params) {
        return std::shared_ptr<ComposedCommunicator>(std::make_shared<HierarchicalCommunicator>(
            std::move(levels[0]), std::move(levels[1]), parse_hierarchical_params(params)));
      }};
  return backend;
}

}  // namespace harness
