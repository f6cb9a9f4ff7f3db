#include "run/oversubscribed_worlds.h"

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "mpi/mpi_check.h"

namespace harness {
namespace {

// Where a rank runs: its host (the lowest world rank on it) and the CPUs it may use.
struct RankPlace {
  int host = 0;
  cpu_set_t cpus;
};

cpu_set_t allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) CPU_SET(0, &set);  // at least one
  return set;
}

int lowest_rank_on_my_host() {
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int rank = 0, lowest = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int status = MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  check_mpi(status, "MPI_Allreduce");
  return lowest;
}

std::vector<RankPlace> every_rank_place() {
  RankPlace mine;
  mine.host = lowest_rank_on_my_host();
  mine.cpus = allowed_cpus();
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<RankPlace> all(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE,
                          MPI_COMM_WORLD),
            "MPI_Allgather");
  return all;
}

// Empty when ranks 0..world_size-1 have a CPU each on every host; else why not.
std::string crowding(const std::vector<RankPlace>& places, int world_size) {
  std::map<int, std::pair<int, cpu_set_t>> hosts;  // host -> (ranks, CPUs of those ranks)
  for (int r = 0; r < world_size; ++r) {
    // Ranks this job does not have (a dry run) go where mpirun -np N puts them: rank 0's host.
    const RankPlace& place = r < static_cast<int>(places.size()) ? places[r] : places[0];
    auto [it, added] = hosts.try_emplace(place.host, 0, cpu_set_t{});
    if (added) CPU_ZERO(&it->second.second);
    ++it->second.first;
    CPU_OR(&it->second.second, &it->second.second, &place.cpus);
  }
  for (const auto& [host, use] : hosts) {
    const int cpus = CPU_COUNT(&use.second);
    if (use.first > cpus)
      return std::to_string(use.first) + " ranks would share " + std::to_string(cpus) +
             " CPU(s) on a host";
  }
  return {};
}

}  // namespace

bool OversubscribedWorlds::contains(int world_size) const {
  return std::binary_search(world_sizes.begin(), world_sizes.end(), world_size);
}

OversubscribedWorlds find_oversubscribed_worlds(const std::vector<Trial>& trials) {
  const std::vector<RankPlace> places = every_rank_place();
  std::vector<int> sizes;
  for (const auto& trial : trials) sizes.push_back(trial.world_size);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  OversubscribedWorlds worlds;
  for (int size : sizes) {
    std::string why = crowding(places, size);
    if (why.empty()) continue;
    worlds.world_sizes.push_back(size);
    worlds.reason = std::move(why);
  }
  return worlds;
}

std::vector<Trial> apply_oversubscribed_rule(std::vector<Trial> trials, OversubscribedPoints rule,
                                             const OversubscribedWorlds& worlds) {
  if (rule == OversubscribedPoints::kMeasure || worlds.world_sizes.empty()) return trials;
  std::vector<Trial> kept;
  for (auto& trial : trials) {
    if (!worlds.contains(trial.world_size)) {
      kept.push_back(std::move(trial));
    } else if (rule == OversubscribedPoints::kOnce && trial.repetition == 0) {
      trial.measured_once = true;
      kept.push_back(std::move(trial));
    }
  }
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i].index = i;
  return kept;
}

std::string oversubscribed_note(OversubscribedPoints rule, const OversubscribedWorlds& worlds) {
  if (worlds.world_sizes.empty()) return {};
  std::string sizes;
  for (int size : worlds.world_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
  const char* what = rule == OversubscribedPoints::kMeasure ? "every repetition, not ranked"
                     : rule == OversubscribedPoints::kOnce
                         ? "one repetition each, to show that they work, not ranked"
                         : "left out";
  return "world size " + sizes + ": oversubscribed (" + worlds.reason + "): " + what +
         " (oversubscribed: " + oversubscribed_points_name(rule) + ")";
}

Json oversubscribed_meta(OversubscribedPoints rule, const OversubscribedWorlds& worlds) {
  if (worlds.world_sizes.empty()) return Json();
  return {{"rule", oversubscribed_points_name(rule)},
          {"world_sizes", worlds.world_sizes},
          {"reason", worlds.reason}};
}

}  // namespace harness
