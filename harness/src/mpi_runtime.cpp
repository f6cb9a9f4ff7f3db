#include "mpi_runtime.h"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace harness {

MpiRuntime::MpiRuntime(int* argc, char*** argv) {
  int provided = 0;
  // Gloo and NCCL run their own threads; MPI itself is only called from the main thread.
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiRuntime::~MpiRuntime() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(what) + " failed: " + std::string(text, length));
}

MPI_Comm split_first_ranks(MPI_Comm world, int group_size) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm group = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(world, rank < group_size ? 0 : MPI_UNDEFINED, rank, &group),
            "MPI_Comm_split");
  if (group != MPI_COMM_NULL) MPI_Comm_set_errhandler(group, MPI_ERRORS_RETURN);
  return group;
}

void sleeping_barrier(MPI_Comm comm) {
  MPI_Request request;
  check_mpi(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
  int done = 0;
  for (auto pause = std::chrono::microseconds(50);; pause = std::min(pause * 2, decltype(pause)(2000))) {
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    std::this_thread::sleep_for(pause);
  }
}

int local_rank(MPI_Comm comm) {
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, length);
  return version.substr(0, version.find_first_of("\n,"));
}

GroupProblem agree_on_problem(MPI_Comm comm, const GroupProblem& local) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local.status.empty() ? size : rank, first = size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return {};
  std::string text = local.status + "\n" + local.reason;
  int length = static_cast<int>(text.size());
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(length));
  check_mpi(MPI_Bcast(text.data(), length, MPI_CHAR, first, comm), "MPI_Bcast");
  const auto newline = text.find('\n');
  GroupProblem agreed{text.substr(0, newline), text.substr(newline + 1)};
  if (size > 1) agreed.reason = "rank " + std::to_string(first) + ": " + agreed.reason;
  return agreed;
}

}  // namespace harness
