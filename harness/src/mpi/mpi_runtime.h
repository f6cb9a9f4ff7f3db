// MPI set-up and tear-down for the harness process (RAII), the library's name and the
// thread level it gave.
#pragma once

#include <mpi.h>

#include <string>

namespace harness {

// The thread support a job asks MPI for, chosen before MPI starts, as it cannot change later.
// Open MPI takes its thread-safe path (locks and condition signalling around every call: about
// 0.15 µs, 1.3x a 4 B allreduce) at every level above MPI_THREAD_SINGLE, so a job asks for
// SINGLE unless a trial calls MPI from a second thread: training with overlap, whose
// communication thread calls the communicator while the main thread waits for it
// (SERIALIZED). No other thread of the harness calls MPI: the watchdog reports over TCP, and
// it and the deadline end a job from their own thread with MPI_Abort only.
constexpr int kThreadLevelWithoutOverlap = MPI_THREAD_SINGLE;
constexpr int kThreadLevelWithOverlap = MPI_THREAD_SERIALIZED;

class MpiRuntime {
 public:
  MpiRuntime(int* argc, char*** argv, int thread_level);
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

// MPI_Get_library_version, first line.
std::string mpi_library_version();

// The thread support MPI_Init_thread provided (MPI_Query_thread), and its name
// ("MPI_THREAD_MULTIPLE", ...).
int mpi_thread_level();
std::string mpi_thread_level_name(int level);

}  // namespace harness
