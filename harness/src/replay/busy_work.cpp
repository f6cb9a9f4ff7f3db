#include "replay/busy_work.h"

#include <chrono>

#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

constexpr std::uint64_t kUnit = 1000;  // multiply-adds a work unit
constexpr double kCalibrationSeconds = 0.2;

// A dependent chain of multiply-adds the compiler cannot drop or vectorise away.
volatile std::uint64_t sink = 0;

void work_units(std::uint64_t units) {
  std::uint64_t x = sink | 1;
  for (std::uint64_t i = 0; i < units * kUnit; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = x;
}

}  // namespace

double calibrate_busy_work(MPI_Comm comm, Watchdog* watchdog) {
  {
    int size = 1;
    MPI_Comm_size(comm, &size);
    WatchedOperation watched(watchdog, "starting the replay's calibration", 0, size);
    check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  }
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  std::uint64_t units = 0;
  double elapsed = 0;
  while (elapsed < kCalibrationSeconds) {
    work_units(16);
    units += 16;
    elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  }
  return static_cast<double>(units) / elapsed;
}

void busy_work(double seconds, double rate) {
  if (seconds > 0) work_units(static_cast<std::uint64_t>(seconds * rate));
}

}  // namespace harness
