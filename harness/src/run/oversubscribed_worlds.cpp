#include "run/oversubscribed_worlds.h"

#include <algorithm>

#include "mpi/cpu_crowding.h"

namespace harness {
namespace {

// Empty when ranks 0..world_size-1 have a CPU each on every host; else why not.
std::string crowding_text(const std::vector<RankPlace>& places, int world_size) {
  const Crowding worst = crowding(places, world_size);
  if (!worst.crowded()) return {};
  return std::to_string(worst.ranks) + " ranks would share " + std::to_string(worst.cpus) +
         " CPU(s) on a host";
}

}  // namespace

bool OversubscribedWorlds::contains(int world_size) const {
  return std::binary_search(world_sizes.begin(), world_sizes.end(), world_size);
}

OversubscribedWorlds find_oversubscribed_worlds(const std::vector<Trial>& trials) {
  const std::vector<RankPlace> places = every_rank_place(MPI_COMM_WORLD);
  std::vector<int> sizes;
  for (const auto& trial : trials) sizes.push_back(trial.world_size);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  OversubscribedWorlds worlds;
  for (int size : sizes) {
    std::string why = crowding_text(places, size);
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

std::optional<OversubscribedMark> oversubscribed_mark(OversubscribedPoints rule,
                                                      const OversubscribedWorlds& worlds) {
  if (worlds.world_sizes.empty()) return std::nullopt;
  return OversubscribedMark{oversubscribed_points_name(rule), worlds.world_sizes, worlds.reason};
}

}  // namespace harness
