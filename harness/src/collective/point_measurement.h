// One message size of a collective benchmark, nccl-tests style: warm-up and timed in-place
// iterations on deterministic per-rank data, each started together after a barrier; the
// slowest rank's time per iteration; bandwidths; and a count of wrong elements.
#pragma once

#include <cstdint>

#include "collective/collective_ops.h"
#include "harness/plugin/torch_element_types.h"
#include "measurement/reduction_memory.h"
#include "record/collective_point.h"
#include "spec/collective_settings.h"
#include "trial/backend_fault.h"
#include "trial/quiet_gate.h"
#include "trial/trial_context.h"

namespace harness {

// What stays the same across the sizes of one trial.
struct PointBenchmark {
  const CollectiveOp& op;
  const CollectiveSettings& settings;
  plugin::TorchElementType type;
  plugin::Communicator& communicator;
  bool on_cuda;
  const TrialContext& context;
  QuietGate& gate;          // the trial's: every size waits for a quiet machine
  ReductionMemory& memory;  // where the reduced buffer lies
  BackendFault& fault;      // this rank's failed call, until the group's next checkpoint
};

// Collective over the trial's group; rank 0's point is complete. `count` is the message's
// elements in total (collective_ops.h: message_count). Throws when an MPI call fails, and
// GroupFailure on every rank when a plugin call failed on any (trial/backend_fault.h).
CollectivePoint measure_point(const PointBenchmark& benchmark, std::int64_t count);

}  // namespace harness
