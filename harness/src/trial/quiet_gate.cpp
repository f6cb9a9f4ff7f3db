#include "trial/quiet_gate.h"


#include <algorithm>
#include <array>
#include <thread>
#include <utility>

#include "mpi/cpu_crowding.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

// Short enough to catch the end of a spell quickly, long enough that the waiting ranks leave
// the CPUs to whoever else needs them.
constexpr auto kPause = std::chrono::milliseconds(20);

// Empty when every host has a CPU per rank; else why not, the same on every rank.
std::string oversubscription(MPI_Comm comm, Watchdog* watchdog) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  WatchedOperation watched(watchdog, "quiet-machine check", 0, size);
  const std::string crowded = group_crowding(comm);
  return crowded.empty() ? "" : crowded + ", so no rank can read the speed canary alone";
}

}  // namespace

QuietGate::QuietGate(const QuietGateSettings& settings, MPI_Comm comm, Watchdog* watchdog,
                     std::function<double()> canary)
    : settings_(settings),
      comm_(comm),
      watchdog_(watchdog),
      canary_(std::move(canary)),
      off_reason_(oversubscription(comm, watchdog)) {}

double QuietGate::read() {
  if (!active()) return 1.0;
  int size = 0;
  MPI_Comm_size(comm_, &size);
  WatchedOperation watched(watchdog_, "quiet-machine check", readings_++, size);
  // Together, so that each reading sees its neighbours busy as during a measurement.
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
  std::array<double, 2> mine{canary_(), spent_s_}, largest{};
  check_mpi(MPI_Allreduce(mine.data(), largest.data(), 2, MPI_DOUBLE, MPI_MAX, comm_),
            "MPI_Allreduce");
  spent_s_ = largest[1];
  return largest[0];
}

// Hysteresis: once a reading has shown a spell, the gate waits for one well inside the
// threshold, not merely under it. Inside a spell the canary flickers around the threshold, so
// the first reading that dips under it would start a measurement in the middle of the spell
// (docs/benchmarks.md, "Figures behind the defaults").
double QuietGate::wait_until_quiet() {
  double slowdown = read();
  if (slowdown <= settings_.max_slowdown) return slowdown;
  const double clear = 1 + (settings_.max_slowdown - 1) / 2;
  while (slowdown > clear && spent_s_ < settings_.wait_s) {
    const auto paused = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(kPause);
    spent_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - paused).count();
    slowdown = read();
  }
  return slowdown;
}

bool QuietGate::finished(double before, double after) {
  const double slowdown = std::max(before, after);
  const bool quiet = slowdown <= settings_.max_slowdown;
  // Measuring again only helps when the machine was quiet before and time is left.
  const bool again =
      active() && !quiet && before <= settings_.max_slowdown && spent_s_ < settings_.wait_s;
  if (again) {
    ++retries_;
    return false;
  }
  ++measurements_;
  if (!quiet) ++not_quiet_;
  largest_kept_ = std::max(largest_kept_, slowdown);
  last_slowdown_ = slowdown;
  last_quiet_ = quiet;
  return true;
}

MachineSpeedRecord QuietGate::summary() const {
  MachineSpeedRecord speed;
  speed.gate = active() ? "on" : "off: " + off_reason_;
  speed.measurements = measurements_;
  speed.not_quiet = not_quiet_;
  speed.retries = retries_;
  speed.waited_s = spent_s_;
  if (active()) speed.slowdown = largest_kept_;
  speed.last_quiet = last_quiet_;
  return speed;
}

}  // namespace harness
