// One step of a captured DDP job, replayed on this rank as DDP runs it: forward and backward as
// busy work (replay/busy_work.h), each bucket copied out of its gradients, divided by the world
// size and launched on the communication thread when backward made it ready in the job (as
// DDP's default comm hook does; compressed: cast to the wire type first, as its fp16 and bf16
// hooks do), backward's remaining work overlapping the allreduces, then the wait for all of
// them (the bucket copied back where it was compressed), then backward's end after its last
// allreduce in the job (DDP's copy into the gradients) and the rest of the step.
#pragma once

#include <ATen/core/Tensor.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/plugin/communicator.h"
#include "measurement/communication_thread.h"
#include "replay/captured_job.h"
#include "replay/ddp_buckets.h"
#include "trial/backend_fault.h"

namespace harness {

// One replayed step on this rank, in seconds.
struct ReplayedStep {
  double total_s = 0;
  double compute_s = 0;  // forward and backward's work, the buckets' copies included
  double exposed_comm_s = 0;  // waiting for the allreduces after backward's work
  double comm_s = 0;          // the allreduces themselves (summed over buckets)
  double rest_s = 0;  // backward's end after the allreduces, and the rest of the step
  std::int64_t backward_end_ns = 0;  // steady clock
};

class StepReplay {
 public:
  // wire: the type the buckets travel in (their own, or the compression's). work_rate: from
  // calibrate_busy_work. A failed backend call is kept in `fault`; the step goes on.
  StepReplay(const JobTimeline& timeline, std::vector<ReplayBucket> buckets,
             std::optional<plugin::DType> wire, plugin::Communicator& communicator,
             BackendFault& fault, int world_size, double work_rate);

  ReplayedStep step();

 private:
  struct Bucket {
    ReplayBucket plan;
    at::Tensor gradients;  // what backward produced (the bucket's own dtype)
    at::Tensor values;     // DDP's bucket: the gradients copied in, averaged in place
    at::Tensor wire;       // the compressed copy sent; undefined without compression
    plugin::DType wire_dtype;
    double comm_s = 0;  // written by the communication thread, read after wait()
  };
  void launch(Bucket& bucket);

  JobTimeline timeline_;
  std::vector<Bucket> buckets_;
  plugin::Communicator& communicator_;
  BackendFault& fault_;
  int world_size_;
  double work_rate_;
  CommunicationThread thread_;
};

}  // namespace harness
