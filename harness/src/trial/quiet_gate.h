// Measure only on a quiet machine. On a shared VM each virtual CPU spends spells of seconds
// at about half speed, invisible to the guest, and a synchronous measurement is as slow as
// its slowest rank: two identical runs then disagree by whatever share of their
// measurements fell into spells. So before a measurement every rank of the group reads its
// speed canary (trial/speed_canary.h) at the same moment; while any rank reads slower than
// max_slowdown x the fastest it has read, the group sleeps a little (taking nothing from the
// machine) and reads again, until every rank reads well inside max_slowdown (half way to full
// speed: the canary flickers around the threshold inside a spell). After the measurement the ranks
// read again, and a spell that began meanwhile makes the group measure again. A trial has wait_s in
// all for waiting and measuring again; what its budget cannot make quiet is kept and marked, never
// dropped. Where a host runs more ranks than it has CPUs, ranks cannot read a canary alone: the
// gate is off there and says why.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "common/json.h"
#include "record/record_parts.h"
#include "spec/quiet_gate_settings.h"
#include "trial/speed_canary.h"

namespace harness {

class Watchdog;

class QuietGate {
 public:
  // Collective over comm (the trial's group), its waits watched by `watchdog` (may be null):
  // decides, the same on every rank, whether the gate can work here. canary: this rank's
  // slowdown now (tests give their own).
  QuietGate(const QuietGateSettings& settings, MPI_Comm comm, Watchdog* watchdog,
            std::function<double()> canary = canary_slowdown);

  // Collective: runs measure() until it ran on a quiet machine (or the gate is off, or the
  // trial's budget is spent) and returns its last result.
  template <typename Measure>
  auto measure(Measure&& measure) {
    for (;;) {
      const double before = wait_until_quiet();
      const auto started = std::chrono::steady_clock::now();
      auto result = measure();
      const double after = read();
      if (finished(before, after)) return result;
      spent_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }
  }

  bool active() const { return off_reason_.empty(); }
  // The last kept measurement: the slowest rank's slowest reading around it (1: full speed),
  // and whether that was within max_slowdown. Always quiet where the gate is off.
  double last_slowdown() const { return last_slowdown_; }
  bool last_quiet() const { return last_quiet_; }

  // The record's account of what the gate saw and did.
  MachineSpeedRecord summary() const;

 private:
  double read();  // collective: the group's largest slowdown now; agrees the time spent
  double wait_until_quiet();
  bool finished(double before, double after);  // records the measurement when it is kept

  QuietGateSettings settings_;
  MPI_Comm comm_;
  Watchdog* watchdog_;
  std::function<double()> canary_;
  std::string off_reason_;
  double spent_s_ = 0;          // waiting and discarded measurements, agreed at every read
  std::uint64_t readings_ = 0;  // the watchdog's step: which reading a stopped rank missed
  int measurements_ = 0;
  int not_quiet_ = 0;
  int retries_ = 0;
  double largest_kept_ = 0;
  double last_slowdown_ = 1;
  bool last_quiet_ = true;
};

}  // namespace harness
