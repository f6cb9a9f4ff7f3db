// The "mpi" backend: in-place MPI_Allreduce on the trial's communicator. Averaging is a sum
// followed by a scale, as MPI has no average op.
#include <mpi.h>

#include <string>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::DType;
using plugin::mpi_status;
using plugin::Status;

namespace {

template <class T>
void scale(void* data, std::size_t count, T factor) {
  T* values = static_cast<T*>(data);
  for (std::size_t i = 0; i < count; ++i) values[i] *= factor;
}

}  // namespace

class MpiCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "mpi";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription = "MPI_Allreduce on the trial communicator";

  static plugin::CommunicatorCapabilities capabilities() { return {}; }

  explicit MpiCommunicator(const nlohmann::json& json) { plugin::Params(json, {}); }

  ~MpiCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    // A private duplicate keeps our traffic apart from the host's and other plugins'.
    size_ = group.size;
    return mpi_status(MPI_Comm_dup(group.comm, &comm_), "MPI_Comm_dup");
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    MPI_Datatype type = buffer.dtype == DType::kFloat32 ? MPI_FLOAT : MPI_DOUBLE;
    Status s = mpi_status(MPI_Allreduce(MPI_IN_PLACE, buffer.data, static_cast<int>(buffer.count),
                                        type, MPI_SUM, comm_),
                          "MPI_Allreduce");
    if (!s.is_ok() || options.op == plugin::ReduceOp::kSum || size_ == 1) return s;
    if (buffer.dtype == DType::kFloat32)
      scale(buffer.data, buffer.count, 1.0f / static_cast<float>(size_));
    else
      scale(buffer.data, buffer.count, 1.0 / static_cast<double>(size_));
    return Status::ok();
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return mpi_status(
        MPI_Bcast(buffer.data, static_cast<int>(buffer.bytes()), MPI_BYTE, root, comm_),
        "MPI_Bcast");
  }

  Status barrier() noexcept override { return mpi_status(MPI_Barrier(comm_), "MPI_Barrier"); }

  std::string describe() const override { return "MPI_Allreduce"; }

 private:
  Status check(const BufferView& buffer) const {
    if (comm_ == MPI_COMM_NULL) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "mpi", plugin::DeviceKind::kCpu,
                                {DType::kFloat32, DType::kFloat64});
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int size_ = 1;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::MpiCommunicator)
