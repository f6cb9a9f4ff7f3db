// ThreadSanitizer's view of the watchdog (scripts/sanitize thread, under mpirun -np 2): the
// main thread enters and leaves nested watched operations as fast as it can while the
// watchdog thread polls them, then the watchdog is torn down. A data race between the two
// threads is a TSan report and a non-zero exit; the test also fails when the watchdog does not
// come up (its connections to rank 0).
#include <mpi.h>

#include <cstdio>

#include "mpi/mpi_runtime.h"
#include "mpi/watchdog.h"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, harness::kThreadLevelWithoutOverlap, &provided);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failures = 0;
  {
    harness::Watchdog watchdog(MPI_COMM_WORLD, /*timeout_s=*/60, nullptr);
    if (!watchdog.active()) {
      std::fprintf(stderr, "watchdog inactive: %s\n", watchdog.inactive_reason().c_str());
      ++failures;
    }
    // A fixed count, not a time: every rank must make the same barriers.
    for (std::uint64_t step = 0; step < 20000; ++step) {
      harness::WatchedOperation outer(&watchdog, "training step", step, size);
      harness::WatchedOperation inner(&watchdog, "gradient allreduce", step, size);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return failures;
}
