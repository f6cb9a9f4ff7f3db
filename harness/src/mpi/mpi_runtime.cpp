#include "mpi/mpi_runtime.h"

#include <cstdlib>

namespace harness {

MpiRuntime::MpiRuntime(int* argc, char*** argv, int thread_level) {
  // Started without mpirun (a dry run, a listing, world size 1), Open MPI's singleton would
  // start a daemon of its own first, for process management the harness never uses: a third
  // of such a run's start. A value the user set wins.
  setenv("OMPI_MCA_ess_singleton_isolated", "1", /*overwrite=*/0);
  int provided = 0;
  MPI_Init_thread(argc, argv, thread_level, &provided);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiRuntime::~MpiRuntime() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  return version.substr(0, version.find_first_of("\n,"));
}

int mpi_thread_level() {
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  return level;
}

std::string mpi_thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "level " + std::to_string(level);
  }
}

}  // namespace harness
