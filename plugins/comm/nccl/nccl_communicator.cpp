// The "nccl" backend: NCCL on one GPU per rank (chosen by local rank), unique id shared over
// MPI, stream-ordered calls on device buffers: ncclAllReduce, ncclReduceScatter, ncclAllGather,
// ncclBroadcast, and alltoall as grouped ncclSend/ncclRecv. Params: algo ("" | "ring" | "tree" | ...) and
// proto ("" | "simple" | "ll" | "ll128"), exported as NCCL_ALGO / NCCL_PROTO while the
// communicator is created (and restored after). Without a visible GPU the plugin reports itself
// unavailable and its trials are skipped.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdlib>
#include <string>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "harness/plugin/scoped_env.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::Status;

namespace {

Status cuda_status(cudaError_t code, const char* what) {
  if (code == cudaSuccess) return Status::ok();
  return Status::internal(std::string(what) + ": " + cudaGetErrorString(code));
}

Status nccl_status(ncclResult_t code, const char* what) {
  if (code == ncclSuccess) return Status::ok();
  return Status::internal(std::string(what) + ": " + ncclGetErrorString(code));
}

ncclDataType_t nccl_type(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return ncclFloat32;
    case DType::kFloat64: return ncclFloat64;
    case DType::kFloat16: return ncclFloat16;
    case DType::kBFloat16: return ncclBfloat16;
  }
  return ncclFloat32;
}

// Why this process cannot use NCCL, or "" when it can. Asked once: the answer cannot change.
const std::string& unavailable_reason() {
  static const std::string reason = [] {
    int devices = 0;
    const cudaError_t code = cudaGetDeviceCount(&devices);
    if (code != cudaSuccess)
      return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(code) +
             ")";
    if (devices == 0) return std::string("no CUDA device visible");
    return std::string();
  }();
  return reason;
}

}  // namespace

class NcclCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "nccl";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "NCCL's collectives on CUDA device buffers, one GPU per rank (alltoall by grouped "
      "ncclSend/ncclRecv)";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = plugin::every_dtype();

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.host_buffers = false;
    c.cuda_buffers = true;
    c.requires_cuda = true;
    c.dtypes = kDTypes;
    c.unavailable_reason = unavailable_reason();
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit NcclCommunicator(const nlohmann::json& json) {
    plugin::Params params(json, {"algo", "proto"});
    algo_ = params.string("algo", "");
    proto_ = params.choice("proto", "", {"", "simple", "ll", "ll128", "Simple", "LL", "LL128"});
  }

  ~NcclCommunicator() override {
    if (comm_) ncclCommDestroy(comm_);
    if (stream_) cudaStreamDestroy(stream_);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (mpi_comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&mpi_comm_);
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    if (Status s = plugin::require_mpi_group(group, "nccl"); !s.is_ok()) return s;
    if (!unavailable_reason().empty()) return Status::unavailable(unavailable_reason());
    return plugin::guarded([&]() -> Status {
      size_ = group.size;
      int devices = 0;
      cudaGetDeviceCount(&devices);
      device_ = group.local_rank % devices;
      if (Status s = cuda_status(cudaSetDevice(device_), "cudaSetDevice"); !s.is_ok()) return s;
      if (Status s = plugin::mpi_status(MPI_Comm_dup(group.comm, &mpi_comm_), "MPI_Comm_dup");
          !s.is_ok())
        return s;
      ncclUniqueId id;
      if (group.rank == 0)
        if (Status s = nccl_status(ncclGetUniqueId(&id), "ncclGetUniqueId"); !s.is_ok()) return s;
      if (Status s =
              plugin::mpi_status(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi_comm_), "MPI_Bcast");
          !s.is_ok())
        return s;
      // NCCL reads these when a communicator is created; restored right after, so a later
      // trial with the default algorithm does not inherit this one's.
      const plugin::ScopedEnv algo("NCCL_ALGO", algo_), proto("NCCL_PROTO", proto_);
      if (Status s =
              nccl_status(ncclCommInitRank(&comm_, group.size, id, group.rank), "ncclCommInitRank");
          !s.is_ok())
        return s;
      return cuda_status(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                         "cudaStreamCreate");
    });
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return nccl_status(
        ncclAllReduce(buffer.data, buffer.data, buffer.count, nccl_type(buffer.dtype),
                      options.op == plugin::ReduceOp::kAvg ? ncclAvg : ncclSum, comm_,
                      options.stream ? static_cast<cudaStream_t>(options.stream) : stream_),
        "ncclAllReduce");
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return nccl_status(
        ncclBroadcast(buffer.data, buffer.data, buffer.bytes(), ncclUint8, root, comm_, stream_),
        "ncclBroadcast");
  }

  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    if (output.count == 0) return Status::ok();
    return nccl_status(
        ncclReduceScatter(input.data, output.data, output.count, nccl_type(input.dtype),
                          options.op == plugin::ReduceOp::kAvg ? ncclAvg : ncclSum, comm_,
                          stream_of(options)),
        "ncclReduceScatter");
  }

  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    if (input.count == 0) return Status::ok();
    return nccl_status(ncclAllGather(input.data, output.data, input.count, nccl_type(input.dtype),
                                     comm_, stream_of(options)),
                       "ncclAllGather");
  }

  // NCCL has no alltoall: one ncclSend and one ncclRecv per peer in a group, as
  // nccl-tests' alltoall does.
  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    if (input.count == 0) return Status::ok();
    const std::size_t block = input.count / static_cast<std::size_t>(size_);
    const std::size_t block_bytes = block * plugin::dtype_size(input.dtype);
    const cudaStream_t stream = stream_of(options);
    if (Status s = nccl_status(ncclGroupStart(), "ncclGroupStart"); !s.is_ok()) return s;
    for (int peer = 0; peer < size_; ++peer) {
      const auto at = static_cast<std::size_t>(peer) * block_bytes;
      const auto* from = static_cast<const char*>(input.data) + at;
      auto* to = static_cast<char*>(output.data) + at;
      ncclSend(from, block, nccl_type(input.dtype), peer, comm_, stream);
      ncclRecv(to, block, nccl_type(input.dtype), peer, comm_, stream);
    }
    return nccl_status(ncclGroupEnd(), "ncclGroupEnd (alltoall)");
  }

  Status synchronize() noexcept override {
    if (!stream_) return Status::ok();
    return cuda_status(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

  Status barrier() noexcept override {
    if (Status s = synchronize(); !s.is_ok()) return s;
    return plugin::mpi_status(MPI_Barrier(mpi_comm_), "MPI_Barrier");
  }

  std::string describe() const override {
    return "NCCL " + std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) +
           " algo=" + (algo_.empty() ? "auto" : algo_) +
           " proto=" + (proto_.empty() ? "auto" : proto_) + " device " + std::to_string(device_);
  }

 private:
  cudaStream_t stream_of(const plugin::CollectiveOptions& options) const {
    return options.stream ? static_cast<cudaStream_t>(options.stream) : stream_;
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  Status check(const BufferView& buffer) const {
    if (!comm_) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "nccl", plugin::DeviceKind::kCuda, kDTypes, SIZE_MAX);
  }

  std::string algo_, proto_;
  int size_ = 1;
  int device_ = 0;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  MPI_Comm mpi_comm_ = MPI_COMM_NULL;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::NcclCommunicator)
