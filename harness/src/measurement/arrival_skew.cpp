#include "measurement/arrival_skew.h"

#include <algorithm>
#include <chrono>

#include "metrics/statistics.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Rank 0: every rank's clock minus rank 0's, the median over a few barrier exits.
std::vector<std::int64_t> clock_offsets(MPI_Comm comm, int rank, int size) {
  constexpr int kRounds = 9;
  std::vector<std::int64_t> mine(kRounds);
  for (auto& t : mine) {
    check_mpi(MPI_Barrier(comm), "MPI_Barrier");
    t = now_ns();
  }
  std::vector<std::int64_t> all(rank == 0 ? static_cast<std::size_t>(kRounds * size) : 0);
  check_mpi(
      MPI_Gather(mine.data(), kRounds, MPI_INT64_T, all.data(), kRounds, MPI_INT64_T, 0, comm),
      "MPI_Gather");
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(size), 0);
  if (rank != 0) return offsets;
  for (int r = 1; r < size; ++r) {
    std::vector<double> differences;
    for (int k = 0; k < kRounds; ++k)
      differences.push_back(static_cast<double>(all[static_cast<std::size_t>(r * kRounds + k)] -
                                                all[static_cast<std::size_t>(k)]));
    offsets[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(percentile(differences, 50));
  }
  return offsets;
}

}  // namespace

std::optional<StragglersRecord> summarise_arrivals(const std::vector<std::int64_t>& arrival_ns, MPI_Comm comm,
                        Watchdog* watchdog) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size < 2 || arrival_ns.empty()) return std::nullopt;
  WatchedOperation watched(watchdog, "straggler analysis", 0, size);
  const auto offsets = clock_offsets(comm, rank, size);
  const auto steps = static_cast<int>(arrival_ns.size());
  std::vector<std::int64_t> all(rank == 0 ? arrival_ns.size() * static_cast<std::size_t>(size) : 0);
  check_mpi(
      MPI_Gather(arrival_ns.data(), steps, MPI_INT64_T, all.data(), steps, MPI_INT64_T, 0, comm),
      "MPI_Gather");
  if (rank != 0) return std::nullopt;
  std::vector<double> skew_ms;
  std::vector<int> last(static_cast<std::size_t>(size), 0);
  for (int s = 0; s < steps; ++s) {
    std::int64_t first = 0, latest = 0;
    int latest_rank = 0;
    for (int r = 0; r < size; ++r) {
      const std::int64_t at =
          all[static_cast<std::size_t>(r * steps + s)] - offsets[static_cast<std::size_t>(r)];
      if (r == 0 || at < first) first = at;
      if (r == 0 || at > latest) {
        latest = at;
        latest_rank = r;
      }
    }
    skew_ms.push_back(static_cast<double>(latest - first) * 1e-6);
    ++last[static_cast<std::size_t>(latest_rank)];
  }
  return StragglersRecord{percentile(skew_ms, 50), percentile(skew_ms, 99),
                          *std::max_element(skew_ms.begin(), skew_ms.end()), last,
                          "median offset at 9 barrier exits"};
}

}  // namespace harness
