// One collective-benchmark trial (nccl-tests style): for each message size, warm-up and timed
// in-place allreduce iterations on deterministic per-rank data, the slowest rank's time per
// iteration, bandwidths, and a count of wrong elements.
#pragma once

#include <cstdint>
#include <vector>

#include "json.h"
#include "trial.h"
#include "trial_context.h"

namespace harness {

// Message sizes in bytes from resolved collective settings.
std::vector<std::uint64_t> message_sizes(const Json& settings);

// Collective over context.comm; rank 0's record is complete.
Json run_collective_trial(const Trial& trial, const TrialContext& context);

}  // namespace harness
