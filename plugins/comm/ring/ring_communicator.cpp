// The "ring" backend: ring_allreduce over MPI point-to-point, as a reference implementation
// beside the libraries' own; its halves are the reduce-scatter and the allgather, alltoall is
// pairwise exchange. Params: chunk_bytes (pipelining unit, default 256 KiB).
#include <mpi.h>

#include <cstddef>
#include <cstring>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/half_float.h"
#include "harness/plugin/mpi_broadcast.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "ring_allreduce.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::Status;

class RingCommunicator final : public plugin::Communicator {
 public:
  static constexpr int kTag = 7402;
  static constexpr const char* kName = "ring";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "textbook ring allreduce (reduce-scatter + allgather, chunked) over MPI point-to-point";

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16};
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit RingCommunicator(const nlohmann::json& json) {
    plugin::Params params(json, {"chunk_bytes"});
    options_.chunk_bytes =
        static_cast<std::size_t>(params.integer("chunk_bytes", 256 * 1024, 64, 1LL << 34));
  }

  ~RingCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    if (Status s = plugin::require_mpi_group(group, "ring"); !s.is_ok()) return s;
    size_ = group.size;
    rank_ = group.rank;
    if (Status s = plugin::mpi_status(MPI_Comm_dup(group.comm, &comm_), "MPI_Comm_dup"); !s.is_ok())
      return s;
    return Status::ok();
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (buffer.dtype) {
        case DType::kFloat32: return reduce(buffer, options.op, &scratch32_);
        case DType::kFloat64: return reduce(buffer, options.op, &scratch64_);
        case DType::kFloat16: return reduce(buffer, options.op, &scratch_fp16_);
        case DType::kBFloat16: return reduce(buffer, options.op, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return plugin::mpi_broadcast_bytes(buffer, root, size_, comm_);
  }

  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: return scatter(input, output, options.op, &scratch32_);
        case DType::kFloat64: return scatter(input, output, options.op, &scratch64_);
        case DType::kFloat16: return scatter(input, output, options.op, &scratch_fp16_);
        case DType::kBFloat16: return scatter(input, output, options.op, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: return gather(input, output, &scratch32_);
        case DType::kFloat64: return gather(input, output, &scratch64_);
        case DType::kFloat16: return gather(input, output, &scratch_fp16_);
        case DType::kBFloat16: return gather(input, output, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  // Not a ring: n - 1 pairwise exchanges, step s with the ranks s to the right and left.
  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    const std::size_t block = input.bytes() / static_cast<std::size_t>(size_);
    if (block > static_cast<std::size_t>(INT32_MAX))
      return Status::invalid_argument("ring alltoall: a block of " + std::to_string(block) +
                                      " B exceeds MPI's int count");
    const auto* in = static_cast<const char*>(input.data);
    auto* out = static_cast<char*>(output.data);
    std::memcpy(out + block * rank_, in + block * rank_, block);
    for (int s = 1; s < size_; ++s) {
      const int to = (rank_ + s) % size_, from = (rank_ - s + size_) % size_;
      const int rc = MPI_Sendrecv(in + block * to, static_cast<int>(block), MPI_BYTE, to, kTag,
                                  out + block * from, static_cast<int>(block), MPI_BYTE, from,
                                  kTag, comm_, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "ring alltoall");
    }
    return Status::ok();
  }

  Status barrier() noexcept override {
    return plugin::mpi_status(MPI_Barrier(comm_), "MPI_Barrier");
  }

  std::string describe() const override {
    return "ring reduce-scatter+allgather, chunk " + std::to_string(options_.chunk_bytes) + " B";
  }

 private:
  template <class T>
  Status reduce(const BufferView& buffer, plugin::ReduceOp op, std::vector<T>* scratch) {
    T* data = static_cast<T*>(buffer.data);
    const int rc = ring_allreduce_sum(data, buffer.count, comm_, options_, scratch);
    if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "ring allreduce");
    if (op == plugin::ReduceOp::kAvg && size_ > 1)
      plugin::divide_in_place(data, buffer.count, size_);
    return Status::ok();
  }

  // The input copied into a whole-size buffer, reduced there, block `rank` copied out.
  template <class T>
  Status scatter(const BufferView& input, const BufferView& output, plugin::ReduceOp op,
                 std::vector<T>* scratch) {
    whole_.resize(input.bytes());  // operator new's alignment suits every element type
    T* whole = reinterpret_cast<T*>(whole_.data());
    std::memcpy(whole, input.data, input.bytes());
    const int rc = ring_reduce_scatter_sum(whole, input.count, comm_, options_, scratch);
    if (rc != MPI_SUCCESS) return plugin::mpi_status(rc, "ring reduce_scatter");
    T* mine = static_cast<T*>(output.data);
    std::memcpy(mine, whole + output.count * rank_, output.bytes());
    if (op == plugin::ReduceOp::kAvg && size_ > 1) plugin::divide_in_place(mine, output.count, size_);
    return Status::ok();
  }

  template <class T>
  Status gather(const BufferView& input, const BufferView& output, std::vector<T>* scratch) {
    T* all = static_cast<T*>(output.data);
    std::memcpy(all + input.count * rank_, input.data, input.bytes());
    const int rc = ring_allgather(all, output.count, comm_, options_, scratch);
    return rc == MPI_SUCCESS ? Status::ok() : plugin::mpi_status(rc, "ring allgather");
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  Status check(const BufferView& buffer) const {
    if (comm_ == MPI_COMM_NULL) return Status::invalid_argument("communicator not initialised");
    // Chunks are sent with int counts; the total may exceed INT32_MAX.
    return plugin::check_buffer(
        buffer, "ring", plugin::DeviceKind::kCpu,
        {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16}, SIZE_MAX);
  }

  RingOptions options_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int size_ = 1;
  int rank_ = 0;
  std::vector<float> scratch32_;
  std::vector<double> scratch64_;
  std::vector<plugin::Float16> scratch_fp16_;
  std::vector<plugin::BFloat16> scratch_bf16_;
  std::vector<std::byte> whole_;  // reduce_scatter's copy of its input
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::RingCommunicator)
