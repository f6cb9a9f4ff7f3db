// The regression gate's known regression: a communicator that calls itself "mpi" and reduces
// exactly as the mpi plugin does (in-place MPI_Allreduce on a private duplicate), then spins
// for HARNESS_SLOWDOWN (default 0.25) times the allreduce's own duration. Built into its own
// folder; a run that puts that folder first on HARNESS_PLUGIN_PATH gets an mpi backend that is
// slower by a known fraction (scripts/regression_selftest).
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/mpi_status.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::BufferView;
using harness::plugin::DType;
using harness::plugin::Status;
using Clock = std::chrono::steady_clock;

double slowdown_from_environment() {
  const char* text = std::getenv("HARNESS_SLOWDOWN");
  return text ? std::strtod(text, nullptr) : 0.25;
}

class SlowedMpiCommunicator final : public harness::plugin::Communicator {
 public:
  static constexpr const char* kName = "mpi";
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription = "test plugin: MPI_Allreduce slowed by a fraction";
  static harness::plugin::CommunicatorCapabilities capabilities() { return {}; }

  explicit SlowedMpiCommunicator(const nlohmann::json& json)
      : slowdown_(slowdown_from_environment()) {
    harness::plugin::Params(json, {});
  }
  ~SlowedMpiCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  }

  Status init(const harness::plugin::GroupInit& group) noexcept override {
    size_ = group.size;
    return harness::plugin::mpi_status(MPI_Comm_dup(group.comm, &comm_), "MPI_Comm_dup");
  }

  Status allreduce(BufferView buffer,
                   const harness::plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    const auto started = Clock::now();
    const MPI_Datatype type = buffer.dtype == DType::kFloat32 ? MPI_FLOAT : MPI_DOUBLE;
    Status s = harness::plugin::mpi_status(
        MPI_Allreduce(MPI_IN_PLACE, buffer.data, static_cast<int>(buffer.count), type, MPI_SUM,
                      comm_),
        "MPI_Allreduce");
    if (s.is_ok() && options.op == harness::plugin::ReduceOp::kAvg && size_ > 1) average(buffer);
    // Spin, not sleep: sleeps round up to tens of microseconds, small messages take one.
    const auto until = Clock::now() + (Clock::now() - started) * slowdown_;
    while (Clock::now() < until) {
    }
    return s;
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return harness::plugin::mpi_status(
        MPI_Bcast(buffer.data, static_cast<int>(buffer.bytes()), MPI_BYTE, root, comm_),
        "MPI_Bcast");
  }

  Status barrier() noexcept override {
    return harness::plugin::mpi_status(MPI_Barrier(comm_), "MPI_Barrier");
  }

  std::string describe() const override {
    return "MPI_Allreduce, slowed by " + std::to_string(slowdown_);
  }

 private:
  Status check(const BufferView& buffer) const {
    if (comm_ == MPI_COMM_NULL) return Status::invalid_argument("communicator not initialised");
    return harness::plugin::check_buffer(buffer, "mpi", harness::plugin::DeviceKind::kCpu,
                                         {DType::kFloat32, DType::kFloat64});
  }

  void average(const BufferView& buffer) const {
    if (buffer.dtype == DType::kFloat32) {
      auto* values = static_cast<float*>(buffer.data);
      for (std::size_t i = 0; i < buffer.count; ++i) values[i] /= static_cast<float>(size_);
    } else {
      auto* values = static_cast<double*>(buffer.data);
      for (std::size_t i = 0; i < buffer.count; ++i) values[i] /= static_cast<double>(size_);
    }
  }

  double slowdown_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int size_ = 1;
};

}  // namespace

HARNESS_REGISTER_COMMUNICATOR(SlowedMpiCommunicator)
