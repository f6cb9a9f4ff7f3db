#include "trial/hierarchical_backend.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "harness/plugin/half_float.h"
#include "harness/plugin/mpi_bootstrap.h"
#include "harness/plugin/mpi_broadcast.h"
#include "spec/schema.h"
#include "spec/settings_table.h"

namespace harness {
namespace {

// backend_params of a hierarchical trial.
struct HierarchicalParams {
  std::string intra = "shm";
  Json intra_params = Json::object();
  std::string inter;
  Json inter_params = Json::object();
};

const SettingsTable<HierarchicalParams>& params_table() {
  using P = HierarchicalParams;
  static const auto table =
      SettingsTable<P>()
          .add("intra", &P::intra, "the communicator plugin within each host")
          .add("intra_params", &P::intra_params, "its parameters")
          .add("inter", &P::inter, "the communicator plugin across hosts (mpi, gloo, ring)")
          .required()
          .add("inter_params", &P::inter_params, "its parameters");
  return table;
}

// Throws std::invalid_argument naming the field: unknown keys, a missing inter, wrong types.
HierarchicalParams parse_params(const Json& params) {
  if (!params.is_object())
    throw std::invalid_argument("expected an object {\"inter\": ..., ...}, got " + params.dump());
  const Schema schema = params_table().schema();
  ErrorList errors;
  validate_object(schema, "", params, "", /*check_required=*/true, errors);
  if (errors.empty()) return params_table().parse(with_defaults(schema, params));
  // "/inter: ..." names a field; a message about the object itself comes as ": ...".
  const std::string& first = errors.messages().front();
  throw std::invalid_argument(first.rfind(": ", 0) == 0 ? first.substr(2) : first);
}

std::vector<ComposedLevel> levels_of(const Json& params) {
  const HierarchicalParams parsed = parse_params(params);
  return {{"intra", parsed.intra, parsed.intra_params}, {"inter", parsed.inter, parsed.inter_params}};
}

std::size_t element_bytes(plugin::DType dtype) {
  return dtype == plugin::DType::kFloat64 ? 8 : dtype == plugin::DType::kFloat32 ? 4 : 2;
}

// Sets every element outside [begin, end) to +0: summing the hosts' disjoint slices within
// the host then gives each slice's value exactly.
void keep_only(const plugin::BufferView& buffer, std::size_t begin, std::size_t end) {
  auto* bytes = static_cast<unsigned char*>(buffer.data);
  const std::size_t size = element_bytes(buffer.dtype);
  std::memset(bytes, 0, begin * size);
  std::memset(bytes + end * size, 0, (buffer.count - end) * size);
}

plugin::Status with_prefix(const plugin::Status& status, const std::string& prefix) {
  const std::string message = prefix + status.message();
  switch (status.code()) {
    case plugin::StatusCode::kOk: return status;
    case plugin::StatusCode::kInvalidArgument: return plugin::Status::invalid_argument(message);
    case plugin::StatusCode::kUnsupported: return plugin::Status::unsupported(message);
    case plugin::StatusCode::kUnavailable: return plugin::Status::unavailable(message);
    case plugin::StatusCode::kInternal: break;
  }
  return plugin::Status::internal(message);
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
                            : with_prefix(within, params_.intra + " (within the host): ");
    const plugin::Status across =
        inter_->init({across_, across_rank, hosts, 0, across_bootstrap_.get()});
    if (!across.is_ok()) return with_prefix(across, params_.inter + " (across hosts): ");
    // An empty reduce-scatter asks the intra plugin whether it offers the collective (the
    // answer is its capabilities', the same on every rank).
    const plugin::BufferView none{nullptr, 0, plugin::DType::kFloat32};
    by_halves_ = local_size_ > 1 && intra_->reduce_scatter(none, none, {}).is_ok();
    return plugin::Status::ok();
  }

  plugin::Status allreduce(plugin::BufferView buffer,
                           const plugin::AllreduceOptions& options) noexcept override {
    plugin::Status status = by_halves_ ? allreduce_by_halves(buffer, options)
                                       : plugin::Status::unsupported("");
    if (status.code() == plugin::StatusCode::kUnsupported) status = allreduce_by_passes(buffer, options);
    if (status.is_ok() && options.op == plugin::ReduceOp::kAvg) divide(buffer);
    return status;
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
    return by_halves_ ? "reduce_scatter+allgather" : "allreduce";
  }

 private:
  // Within the host a reduce-scatter (local rank r holds block r of the host's sum), across
  // hosts an allreduce of that block among the ranks of the same local rank, within the host an
  // allgather: each byte crosses the host's memory and the network once each way. Unsupported
  // (on every rank alike) when the intra plugin lacks the two collectives or the buffer does not
  // split into whole blocks; the caller then goes by passes.
  plugin::Status allreduce_by_halves(const plugin::BufferView& buffer,
                                     const plugin::AllreduceOptions& options) {
    const auto ranks = static_cast<std::size_t>(local_size_);
    if (local_size_ < 2 || buffer.count == 0 || buffer.count % ranks != 0 ||
        buffer.device != plugin::DeviceKind::kCpu)
      return plugin::Status::unsupported("no whole blocks");
    const plugin::AllreduceOptions sum{plugin::ReduceOp::kSum, options.stream};
    block_.resize(buffer.bytes() / ranks);
    plugin::BufferView block = buffer;
    block.data = block_.data();
    block.count = buffer.count / ranks;
    block.device = plugin::DeviceKind::kCpu;
    plugin::Status s = intra_->reduce_scatter(buffer, block, {sum.op, sum.stream});
    if (!s.is_ok()) return s;
    if (s = inter_->allreduce(block, sum); !s.is_ok()) return s;
    return intra_->allgather(block, buffer, {sum.op, sum.stream});
  }

  // With allreduce alone: within the host, across hosts on this rank's slice, and within the
  // host again with every other slice zeroed (an allgather by sums).
  plugin::Status allreduce_by_passes(const plugin::BufferView& buffer,
                                     const plugin::AllreduceOptions& options) {
    const plugin::AllreduceOptions sum{plugin::ReduceOp::kSum, options.stream};
    if (plugin::Status s = intra_->allreduce(buffer, sum); !s.is_ok()) return s;  // checks it
    if (buffer.count == 0) return plugin::Status::ok();
    const auto ranks = static_cast<std::size_t>(local_size_);
    const std::size_t share = (buffer.count + ranks - 1) / ranks;
    const std::size_t begin = std::min(buffer.count, share * static_cast<std::size_t>(local_rank_));
    const std::size_t end = std::min(buffer.count, begin + share);
    plugin::BufferView slice = buffer;
    slice.data = static_cast<unsigned char*>(buffer.data) + begin * element_bytes(buffer.dtype);
    slice.count = end - begin;
    if (plugin::Status s = inter_->allreduce(slice, sum); !s.is_ok()) return s;
    if (local_size_ > 1) {
      keep_only(buffer, begin, end);
      if (plugin::Status s = intra_->allreduce(buffer, sum); !s.is_ok()) return s;
    }
    return plugin::Status::ok();
  }

  void divide(const plugin::BufferView& buffer) const {
    switch (buffer.dtype) {
      case plugin::DType::kFloat32:
        return plugin::divide_in_place(static_cast<float*>(buffer.data), buffer.count, size_);
      case plugin::DType::kFloat64:
        return plugin::divide_in_place(static_cast<double*>(buffer.data), buffer.count, size_);
      case plugin::DType::kFloat16:
        return plugin::divide_in_place(static_cast<plugin::Float16*>(buffer.data), buffer.count,
                                       size_);
      case plugin::DType::kBFloat16:
        return plugin::divide_in_place(static_cast<plugin::BFloat16*>(buffer.data), buffer.count,
                                       size_);
    }
  }

  // Each level's rendezvous, kept while its communicator lives (the destructor resets those
  // first).
  std::unique_ptr<plugin::Bootstrap> host_bootstrap_, across_bootstrap_;
  std::shared_ptr<plugin::Communicator> intra_, inter_;
  HierarchicalParams params_;
  MPI_Comm group_ = MPI_COMM_NULL, host_ = MPI_COMM_NULL, across_ = MPI_COMM_NULL;
  int size_ = 1, local_rank_ = 0, local_size_ = 1;
  bool by_halves_ = false;               // the intra plugin offers reduce_scatter (init)
  std::vector<unsigned char> block_;     // this rank's block between the halves
};

}  // namespace

const ComposedBackend& hierarchical_backend() {
  static const ComposedBackend backend{
      "hierarchical", levels_of,
      [](std::vector<std::shared_ptr<plugin::Communicator>> levels, const Json& params) {
        return std::shared_ptr<ComposedCommunicator>(std::make_shared<HierarchicalCommunicator>(
            std::move(levels[0]), std::move(levels[1]), parse_params(params)));
      }};
  return backend;
}

}  // namespace harness
