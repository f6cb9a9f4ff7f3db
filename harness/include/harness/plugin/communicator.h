// The Communicator interface: what an allreduce backend plugin implements.
// Deliberately free of LibTorch: backends see raw buffers only.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "harness/plugin/status.h"
#include "harness/plugin/types.h"

namespace harness::plugin {

struct CommunicatorCapabilities {
  bool host_buffers = true;    // accepts DeviceKind::kCpu buffers
  bool cuda_buffers = false;   // accepts DeviceKind::kCuda buffers
  bool requires_cuda = false;  // trials must place model and buffers on the GPU
  std::vector<DType> dtypes{DType::kFloat32, DType::kFloat64};
  // Non-empty when the backend cannot run on this machine at all (e.g. NCCL without a GPU);
  // trials on it are recorded as skipped with this reason.
  std::string unavailable_reason;
};

// Everything a backend needs to join a trial's group. The MPI communicator contains exactly
// the trial's ranks; backends may use it for bootstrap (unique ids, rendezvous) or as transport.
// The trial's backend_params went to the plugin's constructor.
struct GroupInit {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  int local_rank = 0;  // rank among the processes on this host
};

struct AllreduceOptions {
  ReduceOp op = ReduceOp::kSum;
  void* stream = nullptr;  // cudaStream_t for CUDA backends; ignored otherwise
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual Status init(const GroupInit& group) noexcept = 0;
  // In-place allreduce of buffer over the group.
  virtual Status allreduce(BufferView buffer, const AllreduceOptions& options) noexcept = 0;
  virtual Status broadcast(BufferView buffer, int root) noexcept = 0;
  virtual Status barrier() noexcept = 0;
  // Waits for work queued on a stream (no-op for synchronous backends).
  virtual Status synchronize() noexcept { return Status::ok(); }
  // A short description of the configured algorithm, recorded with the trial.
  virtual std::string describe() const { return {}; }

  // Host memory for the buffers this communicator will reduce, as NCCL's ncclMemAlloc and
  // ncclCommRegister offer theirs: a backend that reduces faster in memory of its own (shared
  // with the other ranks of a host, registered with a device) provides it, and the host then
  // places its buckets and collective buffers there. Collective over the group: every rank
  // calls it in the same order with the same size. nullptr on every rank (the default) when
  // the communicator offers none or could not map it: the host allocates as usual. The memory
  // stays valid until release_memory(pointer) or the communicator's destruction.
  virtual void* provide_memory(std::size_t bytes) noexcept {
    (void)bytes;
    return nullptr;
  }
  virtual void release_memory(void* memory) noexcept { (void)memory; }
};

}  // namespace harness::plugin
