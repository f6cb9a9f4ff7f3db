#include "run/adaptive_repetitions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "metrics/point_estimate.h"
#include "results/point_figures.h"

namespace harness {

double widest_relative_width(const std::vector<TrialRun>& point_records,
                             const Estimator& estimator) {
  PointFigures figures;
  for (const auto& record : point_records)
    if (record.measured()) collect_point_figures(record, figures);
  double widest = 0;
  for (const auto& [figure, values] : figures) {
    if (!is_speed_figure(figure.first) || values.size() < 2) continue;
    widest =
        std::max(widest, estimate_point(values, estimator, figure_direction(figure.first)).width);
  }
  return widest;
}

std::string target_text(const AdaptiveRepetitions& settings, const Estimator& estimator) {
  char text[64];
  if (estimator.kind == EstimatorKind::kKBest)
    std::snprintf(text, sizeof text, "%g%% between the %d fastest", settings.target_ci * 100,
                  estimator.k);
  else
    std::snprintf(text, sizeof text, "+-%g%%", settings.target_ci * 100);
  return text;
}

std::vector<Trial> one_trial_per_point(const std::vector<Trial>& trials) {
  std::vector<Trial> points;
  std::set<std::string> seen;
  for (const auto& trial : trials)
    if (!trial.measured_once && seen.insert(trial.point).second) points.push_back(trial);
  return points;
}

AdaptivePlanner::AdaptivePlanner(const AdaptiveRepetitions& settings, const Estimator& estimator,
                                 int planned_repetitions, std::vector<Trial> points)
    : settings_(settings),
      estimator_(estimator),
      planned_(planned_repetitions),
      points_(std::move(points)) {}

std::vector<TrialRun> AdaptivePlanner::records_of(std::size_t point,
                                                  const std::vector<TrialRun>& records,
                                                  int before_repetition) const {
  std::vector<TrialRun> found;
  for (const auto& record : records)
    if (record.identity.point == points_[point].point &&
        record.identity.repetition < before_repetition)
      found.push_back(record);
  return found;
}

std::vector<std::size_t> AdaptivePlanner::points_to_repeat(const std::vector<TrialRun>& records,
                                                           int repetition) const {
  std::vector<std::size_t> chosen;
  if (repetition < planned_ || repetition >= settings_.max_repetitions) return chosen;
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (widest_relative_width(records_of(p, records, repetition), estimator_) > settings_.target_ci)
      chosen.push_back(p);
  return chosen;
}

bool AdaptivePlanner::is_extra(const TrialRun& record) const {
  return record.identity.repetition >= planned_;
}

double AdaptivePlanner::seconds_spent(const std::vector<TrialRun>& records) const {
  double spent = 0;
  for (const auto& record : records)
    if (is_extra(record)) spent += record.end.wall_time_s;
  return spent;
}

bool AdaptivePlanner::budget_left(const std::vector<TrialRun>& records) const {
  return seconds_spent(records) < settings_.budget_s;
}

AdaptiveSummary AdaptivePlanner::summary(const std::vector<TrialRun>& records) const {
  AdaptiveSummary summary{settings_.max_repetitions, estimator_name(estimator_.kind),
                          settings_.target_ci, settings_.budget_s, 0, seconds_spent(records),
                          points_.size(), {}, std::nullopt};
  for (const auto& record : records) summary.extra_trials += is_extra(record) ? 1 : 0;
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const double width =
        widest_relative_width(records_of(p, records, std::numeric_limits<int>::max()), estimator_);
    if (width > settings_.target_ci)
      summary.still_wide.push_back(
          {points_[p].point, points_[p].part, points_[p].axes,
           std::isfinite(width) ? std::optional<double>(width) : std::nullopt});
  }
  return summary;
}

}  // namespace harness
