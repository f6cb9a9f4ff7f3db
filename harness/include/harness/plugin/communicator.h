// The Communicator interface: what an allreduce backend plugin implements.
// Deliberately free of LibTorch: backends see raw buffers only.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "harness/plugin/bootstrap.h"
#include "harness/plugin/status.h"
#include "harness/plugin/types.h"
#include "harness/plugin/version.h"

namespace harness::plugin {

// What a communicator can do, asked before a trial. The struct crosses the plugin boundary, so
// each API version has its own layout, under a name of its own; CommunicatorCapabilities is
// the one of the API this plugin is built for (HARNESS_PLUGIN_API_VERSION, version.h), and the
// host reads a plugin's struct in that plugin's layout. A layout never changes once released:
// a new API appends fields in a new struct.
//
// Ownership: the host constructs the struct and passes it to the plugin's capabilities entry
// point, the plugin assigns its answer to it (register.h's macros), and the host destroys it.
// Its vectors and strings are therefore allocated on one side and freed on the other, through
// the process's one global operator new and delete; the build id (version.h) makes both sides
// one standard library with one ABI, which is what makes that safe.

// API 3.
struct CommunicatorCapabilitiesV3 {
  bool host_buffers = true;    // accepts DeviceKind::kCpu buffers
  bool cuda_buffers = false;   // accepts DeviceKind::kCuda buffers
  bool requires_cuda = false;  // trials must place model and buffers on the GPU
  std::vector<DType> dtypes{DType::kFloat32, DType::kFloat64};
  // Non-empty when the backend cannot run on this machine at all (e.g. NCCL without a GPU);
  // trials on it are recorded as skipped with this reason.
  std::string unavailable_reason;
};

// API 4: API 3's fields, then the collectives it offers; a trial of another is refused, naming
// the backend and the collective, before it runs. (A plugin of API 3 offers allreduce and
// broadcast.)
struct CommunicatorCapabilitiesV4 {
  bool host_buffers = true;
  bool cuda_buffers = false;
  bool requires_cuda = false;
  std::vector<DType> dtypes{DType::kFloat32, DType::kFloat64};
  std::string unavailable_reason;
  std::vector<Collective> collectives{Collective::kAllreduce, Collective::kBroadcast};
};

#if HARNESS_PLUGIN_API_VERSION == 3
using CommunicatorCapabilities = CommunicatorCapabilitiesV3;
#else
using CommunicatorCapabilities = CommunicatorCapabilitiesV4;
#endif

// Everything a backend needs to join a trial's group. The trial's backend_params went to the
// plugin's constructor.
struct GroupInit {
  // Under the harness, an MPI communicator of exactly the trial's ranks, which a backend may use
  // for its rendezvous or as its transport. MPI_COMM_NULL where the ranks are not MPI's
  // (PyTorch's process group): a backend that joins or sends through MPI then declines, saying so.
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  int local_rank = 0;  // rank among the processes on this host
  // API 5 (appended, so plugins of API 3 and 4 read the fields above where they were): how the
  // ranks find each other (bootstrap.h), set by every host of API 5, MPI's or PyTorch's.
  Bootstrap* bootstrap = nullptr;
};

// For a backend that joins or sends through MPI: declines (kUnsupported, which the harness
// records as skipped) a group that brings no MPI communicator, naming the backend.
inline Status require_mpi_group(const GroupInit& group, const char* backend) {
  if (group.comm != MPI_COMM_NULL) return Status::ok();
  return Status::unsupported(std::string(backend) +
                             " joins or sends through MPI, and this group is PyTorch's, which "
                             "gives a backend no MPI communicator (under mpirun too): use a "
                             "backend that joins through the group's bootstrap alone, such as shm");
}

struct AllreduceOptions {
  ReduceOp op = ReduceOp::kSum;
  void* stream = nullptr;  // cudaStream_t for CUDA backends; ignored otherwise
};

// For the collectives of API 4 (op: reduce_scatter only).
struct CollectiveOptions {
  ReduceOp op = ReduceOp::kSum;
  void* stream = nullptr;
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

  // --- API 4: appended, so that the methods above keep their places for plugins of API 3,
  // whose objects the host never asks for these. Each is offered when capabilities()
  // lists it; the defaults say it is not.
  //
  // reduce_scatter: `input` holds size * output.count elements; rank r's `output` receives
  // block r of their reduction over the group.
  virtual Status reduce_scatter(BufferView input, BufferView output,
                                const CollectiveOptions& options) noexcept {
    (void)input, (void)output, (void)options;
    return Status::unsupported(describe() + " does not support reduce_scatter");
  }
  // allgather: `output` holds size * input.count elements; block r is rank r's input.
  virtual Status allgather(BufferView input, BufferView output,
                           const CollectiveOptions& options) noexcept {
    (void)input, (void)output, (void)options;
    return Status::unsupported(describe() + " does not support allgather");
  }
  // alltoall: `input` and `output` hold size blocks of input.count / size elements; block j of
  // rank i's input becomes block i of rank j's output.
  virtual Status alltoall(BufferView input, BufferView output,
                          const CollectiveOptions& options) noexcept {
    (void)input, (void)output, (void)options;
    return Status::unsupported(describe() + " does not support alltoall");
  }
};

}  // namespace harness::plugin
