// MPI set-up and tear-down for the harness process (RAII), the library's name and the
// thread level it gave.
#pragma once

#include <mpi.h>

#include <string>

namespace harness {

class MpiRuntime {
 public:
  MpiRuntime(int* argc, char*** argv);
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
