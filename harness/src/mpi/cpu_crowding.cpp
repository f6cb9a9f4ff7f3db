#include "mpi/cpu_crowding.h"

#include <map>
#include <utility>

#include "mpi/mpi_check.h"

namespace harness {
namespace {

cpu_set_t allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) CPU_SET(0, &set);  // at least one
  return set;
}

int lowest_rank_on_my_host(MPI_Comm comm) {
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int rank = 0, lowest = 0;
  MPI_Comm_rank(comm, &rank);
  const int status = MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  check_mpi(status, "MPI_Allreduce");
  return lowest;
}

}  // namespace

std::vector<RankPlace> every_rank_place(MPI_Comm comm) {
  RankPlace mine;
  mine.host = lowest_rank_on_my_host(comm);
  mine.cpus = allowed_cpus();
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<RankPlace> all(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm),
            "MPI_Allgather");
  return all;
}

Crowding crowding(const std::vector<RankPlace>& places, int ranks) {
  std::map<int, std::pair<int, cpu_set_t>> hosts;  // host -> (ranks, CPUs of those ranks)
  for (int r = 0; r < ranks; ++r) {
    const RankPlace& place = r < static_cast<int>(places.size()) ? places[r] : places[0];
    auto [it, added] = hosts.try_emplace(place.host, 0, cpu_set_t{});
    if (added) CPU_ZERO(&it->second.second);
    ++it->second.first;
    CPU_OR(&it->second.second, &it->second.second, &place.cpus);
  }
  Crowding worst;
  for (const auto& [host, use] : hosts) {
    const Crowding here{use.first, CPU_COUNT(&use.second)};
    if (here.ranks - here.cpus > worst.ranks - worst.cpus) worst = here;
  }
  return worst;
}

std::string group_crowding(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const Crowding worst = crowding(every_rank_place(comm), size);
  if (!worst.crowded()) return "";
  return std::to_string(worst.ranks) + " ranks share " + std::to_string(worst.cpus) +
         " CPU(s) on a host";
}

}  // namespace harness
