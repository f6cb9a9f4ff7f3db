// LibTorch's intra-op thread pool, started for a trial. Its pool (pthreadpool) waits forever
// for a thread it could not start, which an address-space limit (ulimit -v) makes happen:
// the threads are tried first, so that such a trial fails with the reason instead, and the
// pool's own start is watched by the watchdog like any other wait.
#pragma once

#include "trial/group_agreement.h"
#include "trial/trial_context.h"

namespace harness {

// Collective over the trial's group: every rank learns the first rank's problem, if any.
GroupProblem start_thread_pool(int threads, const TrialContext& context);

}  // namespace harness
