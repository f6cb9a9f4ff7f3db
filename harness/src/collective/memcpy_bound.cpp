#include "collective/memcpy_bound.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <vector>

#include "mpi/mpi_check.h"

namespace harness {
namespace {

constexpr int kCopies = 10;

}  // namespace

double measure_memcpy_gbps(std::size_t bytes, int copies) {
  // Written before timing so that every page exists: the copy times the memory, not page faults.
  std::vector<unsigned char> source(bytes, 1), target(bytes, 0);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < copies; ++i) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(target.data(), source.data(), bytes);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return static_cast<double>(bytes) / best / 1e9;
}

double group_memcpy_gbps(const TrialContext& context) {
  int rank = 0;
  MPI_Comm_rank(context.comm, &rank);
  const double gbps = rank == 0 ? measure_memcpy_gbps(kMemcpyBoundBytes, kCopies) : 0.0;
  check_mpi(MPI_Barrier(context.comm), "MPI_Barrier");
  return gbps;
}

}  // namespace harness
