#include "run/adaptive_repetitions.h"

#include <algorithm>
#include <limits>
#include <set>

#include "metrics/statistics.h"
#include "results/point_figures.h"

namespace harness {

double widest_relative_interval(const std::vector<Json>& point_records) {
  PointFigures figures;
  for (const auto& record : point_records)
    if (measured(record)) collect_point_figures(record, figures);
  double widest = 0;
  for (const auto& [figure, values] : figures) {
    if (!is_speed_figure(figure.first) || values.size() < 2) continue;
    const SampleSummary s = summarise(values);
    // A median of zero has no relative width: nothing more to learn from repeating it.
    if (s.median <= 0) continue;
    widest = std::max(widest, (s.median_ci.high - s.median_ci.low) / 2 / s.median);
  }
  return widest;
}

std::vector<Trial> one_trial_per_point(const std::vector<Trial>& trials) {
  std::vector<Trial> points;
  std::set<std::string> seen;
  for (const auto& trial : trials)
    if (seen.insert(trial.point).second) points.push_back(trial);
  return points;
}

AdaptivePlanner::AdaptivePlanner(const AdaptiveRepetitions& settings, int planned_repetitions,
                                 std::vector<Trial> points)
    : settings_(settings), planned_(planned_repetitions), points_(std::move(points)) {}

std::vector<Json> AdaptivePlanner::records_of(std::size_t point, const std::vector<Json>& records,
                                              int before_repetition) const {
  std::vector<Json> found;
  for (const auto& record : records)
    if (record.value("point", "") == points_[point].point &&
        record.value("repetition", 0) < before_repetition)
      found.push_back(record);
  return found;
}

std::vector<std::size_t> AdaptivePlanner::points_to_repeat(const std::vector<Json>& records,
                                                           int repetition) const {
  std::vector<std::size_t> chosen;
  if (repetition < planned_ || repetition >= settings_.max_repetitions) return chosen;
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (widest_relative_interval(records_of(p, records, repetition)) > settings_.target_ci)
      chosen.push_back(p);
  return chosen;
}

bool AdaptivePlanner::is_extra(const Json& record) const {
  return record.value("repetition", 0) >= planned_;
}

double AdaptivePlanner::seconds_spent(const std::vector<Json>& records) const {
  double spent = 0;
  for (const auto& record : records)
    if (is_extra(record)) spent += record.value("wall_time_s", 0.0);
  return spent;
}

bool AdaptivePlanner::budget_left(const std::vector<Json>& records) const {
  return seconds_spent(records) < settings_.budget_s;
}

Json AdaptivePlanner::summary(const std::vector<Json>& records) const {
  std::size_t extra = 0;
  for (const auto& record : records) extra += is_extra(record) ? 1 : 0;
  Json wide = Json::array();
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const double width =
        widest_relative_interval(records_of(p, records, std::numeric_limits<int>::max()));
    if (width > settings_.target_ci)
      wide.push_back({{"point", points_[p].point},
                      {"part", points_[p].part},
                      {"axes", points_[p].axes},
                      {"relative_ci", width}});
  }
  return {{"max_repetitions", settings_.max_repetitions},
          {"target_ci", settings_.target_ci},
          {"budget_s", settings_.budget_s},
          {"extra_trials", extra},
          {"seconds_spent", seconds_spent(records)},
          {"points", points_.size()},
          {"still_wide", wide}};
}

}  // namespace harness
