// How a rank waits for a peer in the shared segment: it spins for a while (a peer a few
// microseconds behind is met at once), then, by default, sleeps on a futex in the segment until
// the peer's arrival wakes it. A rank that only yielded its core would still be runnable, and on
// a machine whose cores are all busy (ranks and their own compute threads, or another job) it
// would take time from the backward pass its step is waiting for.
#pragma once

#include <atomic>
#include <cstdint>

namespace harness::plugins {

struct WaitPolicy {
  double spin_us = 20;  // spinning before the core is given up
  bool sleep = true;    // then sleep until woken (false: yield the core in a loop)
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
  const double spin_until = microseconds_now() + policy.spin_us;
  for (unsigned spins = 0; !arrived(); ++spins) {
    if (spins % 16 != 0 || microseconds_now() < spin_until) {
      cpu_relax();
    } else if (!policy.sleep) {
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
