// How a rank waits for a peer in the shared segment: it spins for a while (a peer a few
// microseconds behind, inside the same call, is met at once), then yields its core. With sleep,
// after yielding for a while more it sleeps on a futex in the segment until the peer's arrival
// wakes it (a peer still computing: its backward pass, say), so that it takes no core from that
// compute. Sleeping is not the default: every wake costs a reschedule, and on 2-vCPU VMs a
// PyTorch DDP step measured slower with it than yielding, even beside two busy processes
// (docs/benchmarks.md).
#pragma once

#include <atomic>
#include <cstdint>

namespace harness::plugins {

struct WaitPolicy {
  double spin_us = 20;    // spinning first
  double yield_us = 200;  // then yielding the core, still runnable (a peer inside the same call)
  bool sleep = false;     // then sleeping until woken (false: yielding for as long as it takes)
};

// One per rank in the segment: the futex word its arrivals bump, and how many peers sleep on it.
struct ArrivalSignal {
  std::atomic<std::uint32_t> arrivals{0};
  std::atomic<std::uint32_t> sleepers{0};
};

// After this rank published its arrival (a sequentially consistent store): wakes its sleepers.
void announce_arrival(ArrivalSignal& mine);

// The pieces wait_for_peer is made of, out of line.
void cpu_relax();
double microseconds_now();
void sched_yield_once();
void sleep_on(ArrivalSignal& theirs, std::uint32_t seen);

// Returns once `arrived()` holds: spinning, then yielding or sleeping on `theirs` (the peer's
// signal, which its announce_arrival wakes) by the policy. arrived() must read with
// sequentially consistent ordering, as announce_arrival's caller writes.
template <class Arrived>
void wait_for_peer(ArrivalSignal& theirs, const WaitPolicy& policy, Arrived arrived) {
  if (arrived()) return;
  const double started = microseconds_now();
  double waited = 0;
  for (unsigned spins = 1; !arrived(); ++spins) {
    if (spins % 16 == 0) waited = microseconds_now() - started;  // the clock, not every pause
    if (waited < policy.spin_us) {
      cpu_relax();
    } else if (!policy.sleep || waited < policy.spin_us + policy.yield_us) {
      sched_yield_once();
    } else {
      // Counted as a sleeper before the last look: a peer that arrives after that look sees
      // the count and wakes this rank; one that arrived before it was seen by the look.
      theirs.sleepers.fetch_add(1, std::memory_order_seq_cst);
      const std::uint32_t seen = theirs.arrivals.load(std::memory_order_seq_cst);
      if (!arrived()) sleep_on(theirs, seen);
      theirs.sleepers.fetch_sub(1, std::memory_order_seq_cst);
    }
  }
}

}  // namespace harness::plugins
