// The "ring" backend: ring_allreduce over MPI point-to-point, as a reference implementation
// beside the libraries' own. Params: chunk_bytes (pipelining unit, default 256 KiB).
#include <mpi.h>

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
using plugin::DType;
using plugin::Status;

class RingCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "ring";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "textbook ring allreduce (reduce-scatter + allgather, chunked) over MPI point-to-point";

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16};
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
    size_ = group.size;
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
  std::vector<float> scratch32_;
  std::vector<double> scratch64_;
  std::vector<plugin::Float16> scratch_fp16_;
  std::vector<plugin::BFloat16> scratch_bf16_;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::RingCommunicator)
