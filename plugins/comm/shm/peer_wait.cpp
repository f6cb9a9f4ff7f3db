#include "peer_wait.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <ctime>

namespace harness::plugins {
namespace {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "the futex word must be a plain 32-bit word in the shared segment");

// Shared between processes (the segment is MAP_SHARED): not the _PRIVATE futex operations.
std::uint32_t* futex_word(ArrivalSignal& signal) {
  return reinterpret_cast<std::uint32_t*>(&signal.arrivals);
}

}  // namespace

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

double microseconds_now() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void sched_yield_once() { sched_yield(); }

// At most a millisecond at a time: a wake lost to a peer that died is then only a slow poll.
void sleep_on(ArrivalSignal& theirs, std::uint32_t seen) {
  const timespec timeout{0, 1000 * 1000};
  syscall(SYS_futex, futex_word(theirs), FUTEX_WAIT, seen, &timeout, nullptr, 0);
}

void announce_arrival(ArrivalSignal& mine) {
  mine.arrivals.fetch_add(1, std::memory_order_seq_cst);
  if (mine.sleepers.load(std::memory_order_seq_cst) > 0)
    syscall(SYS_futex, futex_word(mine), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace harness::plugins
