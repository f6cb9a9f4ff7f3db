// The job's computation, replayed as busy work: a fixed amount of arithmetic per second of the
// job's, calibrated while every rank of the group works at once (as the job's ranks computed
// side by side). Counted in work rather than watched on a clock, it slows down when the
// communication thread takes the core, as the job's computation did.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace harness {

class Watchdog;

// Collective over comm: this rank's work units per second, every rank working.
double calibrate_busy_work(MPI_Comm comm, Watchdog* watchdog);

// The work of `seconds` at `rate` units per second; nothing for seconds <= 0.
void busy_work(double seconds, double rate);

}  // namespace harness
