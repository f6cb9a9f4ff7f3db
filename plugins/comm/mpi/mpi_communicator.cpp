// The "mpi" backend: MPI's own collectives on the trial's communicator (an in-place
// MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Allgather, MPI_Bcast, MPI_Alltoall). Averaging is a sum
// followed by a scale, as MPI has no average op. MPI has no 16-bit float type either: fp16 and
// bf16 travel as 16-bit integers and are summed by user-defined ops that round every sum back
// to the type (MPI_Op_create).
#include <mpi.h>

#include <string>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/half_float.h"
#include "harness/plugin/mpi_broadcast.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::mpi_status;
using plugin::Status;

namespace {

template <class T>
void scale(void* data, std::size_t count, T factor) {
  T* values = static_cast<T*>(data);
  for (std::size_t i = 0; i < count; ++i) values[i] *= factor;
}

// MPI_User_function for a 16-bit float type T.
template <class T>
void sum_16bit(void* in, void* inout, int* length, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *length; ++i) b[i] += a[i];
}

}  // namespace

class MpiCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "mpi";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "MPI's collectives (MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Allgather, MPI_Bcast, "
      "MPI_Alltoall) on the trial communicator";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = plugin::every_dtype();

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = kDTypes;
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit MpiCommunicator(const nlohmann::json& json) { plugin::Params(json, {}); }

  ~MpiCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    for (MPI_Op* op : {&sum_fp16_, &sum_bf16_})
      if (*op != MPI_OP_NULL) MPI_Op_free(op);
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    if (Status s = plugin::require_mpi_group(group, "mpi"); !s.is_ok()) return s;
    // A private duplicate keeps our traffic apart from the host's and other plugins'.
    size_ = group.size;
    if (Status s = mpi_status(MPI_Comm_dup(group.comm, &comm_), "MPI_Comm_dup"); !s.is_ok())
      return s;
    if (Status s =
            mpi_status(MPI_Op_create(&sum_16bit<plugin::Float16>, 1, &sum_fp16_), "MPI_Op_create");
        !s.is_ok())
      return s;
    return mpi_status(MPI_Op_create(&sum_16bit<plugin::BFloat16>, 1, &sum_bf16_), "MPI_Op_create");
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    Status s = mpi_status(MPI_Allreduce(MPI_IN_PLACE, buffer.data, static_cast<int>(buffer.count),
                                        mpi_type(buffer.dtype), sum_op(buffer.dtype), comm_),
                          "MPI_Allreduce");
    if (!s.is_ok() || options.op == plugin::ReduceOp::kSum || size_ == 1) return s;
    average(buffer);
    return Status::ok();
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return plugin::mpi_broadcast_bytes(buffer, root, size_, comm_);
  }

  Status barrier() noexcept override { return mpi_status(MPI_Barrier(comm_), "MPI_Barrier"); }

  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    if (output.count == 0) return Status::ok();
    Status s = mpi_status(
        MPI_Reduce_scatter_block(input.data, output.data, static_cast<int>(output.count),
                                 mpi_type(input.dtype), sum_op(input.dtype), comm_),
        "MPI_Reduce_scatter_block");
    if (!s.is_ok() || options.op == plugin::ReduceOp::kSum || size_ == 1) return s;
    average(output);
    return Status::ok();
  }

  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    if (input.count == 0) return Status::ok();
    const int count = static_cast<int>(input.count);
    return mpi_status(MPI_Allgather(input.data, count, mpi_type(input.dtype), output.data, count,
                                    mpi_type(input.dtype), comm_),
                      "MPI_Allgather");
  }

  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    if (input.count == 0) return Status::ok();
    const int block = static_cast<int>(input.count / static_cast<std::size_t>(size_));
    return mpi_status(MPI_Alltoall(input.data, block, mpi_type(input.dtype), output.data, block,
                                   mpi_type(input.dtype), comm_),
                      "MPI_Alltoall");
  }

  std::string describe() const override { return "MPI_Allreduce"; }

 private:
  Status check(const BufferView& buffer) const {
    if (comm_ == MPI_COMM_NULL) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "mpi", plugin::DeviceKind::kCpu, kDTypes);
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  static MPI_Datatype mpi_type(DType dtype) {
    switch (dtype) {
      case DType::kFloat32: return MPI_FLOAT;
      case DType::kFloat64: return MPI_DOUBLE;
      case DType::kFloat16:
      case DType::kBFloat16: return MPI_UINT16_T;
    }
    return MPI_DATATYPE_NULL;
  }

  MPI_Op sum_op(DType dtype) const {
    if (dtype == DType::kFloat16) return sum_fp16_;
    if (dtype == DType::kBFloat16) return sum_bf16_;
    return MPI_SUM;
  }

  void average(const BufferView& buffer) const {
    switch (buffer.dtype) {
      case DType::kFloat32:
        scale(buffer.data, buffer.count, 1.0f / static_cast<float>(size_));
        break;
      case DType::kFloat64:
        scale(buffer.data, buffer.count, 1.0 / static_cast<double>(size_));
        break;
      case DType::kFloat16:
        plugin::divide_in_place(static_cast<plugin::Float16*>(buffer.data), buffer.count, size_);
        break;
      case DType::kBFloat16:
        plugin::divide_in_place(static_cast<plugin::BFloat16*>(buffer.data), buffer.count, size_);
        break;
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Op sum_fp16_ = MPI_OP_NULL;
  MPI_Op sum_bf16_ = MPI_OP_NULL;
  int size_ = 1;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::MpiCommunicator)
