#include "search/objective_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/human_units.h"
#include "metrics/statistics.h"

namespace harness {
namespace {

// The slowdown behind the one usable figure among `figures`.
double figures_slowdown(const std::vector<TrialFigure>& figures) {
  for (const auto& figure : figures)
    if (figure.usable) return figure.slowdown;
  return 1.0;
}

// The bus bandwidth at the chosen message size, or at the largest one measured.
std::optional<double> busbw_of(const TrialRun& run, const SearchSettings& search) {
  if (!run.collective) return std::nullopt;
  std::optional<double> chosen;
  std::uint64_t largest = 0;
  for (const CollectivePoint& point : run.collective->points) {
    const bool wanted =
        search.message_bytes ? point.bytes == *search.message_bytes : point.bytes >= largest;
    if (wanted) {
      chosen = point.busbw_gbps;
      largest = point.bytes;
    }
  }
  return chosen;
}

void time_to_target(const TrainFigures& train, const SearchSettings& search, TrialFigure* figure) {
  // Seconds per training step in the timing phase: the measured step rate.
  const double step_s = train.step_time_ms ? train.step_time_ms->p50 / 1000 : 0;
  if (step_s <= 0) {
    figure->problem = "no measured step time";
    return;
  }
  const double trained_s = static_cast<double>(train.steps) * step_s;
  if (search.target_auroc) {
    figure->reached = train.auroc && *train.auroc >= *search.target_auroc;
    figure->value = trained_s;
  } else {
    figure->reached = train.target.reached();
    figure->value = figure->reached ? static_cast<double>(*train.target.steps) * step_s : 0;
  }
  figure->at_least = trained_s;
  figure->usable = true;
}

// The objective's figure of a measured record, when it has one.
std::optional<double> objective_value(const TrialRun& run, const SearchSettings& search) {
  switch (search.objective) {
    case SearchObjective::kSamplesPerS:
      if (run.train && run.train->throughput) return run.train->throughput->samples_per_s;
      return std::nullopt;
    case SearchObjective::kAuroc: return run.train ? run.train->auroc : std::nullopt;
    case SearchObjective::kBusbw: return busbw_of(run, search);
    case SearchObjective::kTimeToTarget: break;  // not one value: time_to_target()
  }
  return std::nullopt;
}

}  // namespace

TrialFigure figure_of(const TrialRun& run, const SearchSettings& search) {
  TrialFigure figure;
  if (!run.measured()) {
    figure.problem = std::string(trial_status_name(run.end.status)) + ": " + run.end.reason;
    return figure;
  }
  if (run.train && run.train->final_loss) figure.final_loss = *run.train->final_loss;
  if (run.machine_speed && run.machine_speed->not_quiet > 0 && run.machine_speed->slowdown)
    figure.slowdown = std::max(1.0, *run.machine_speed->slowdown);
  if (search.objective == SearchObjective::kTimeToTarget) {
    if (run.train)
      time_to_target(*run.train, search, &figure);
    else
      figure.problem = "no measured step time";
    return figure;
  }
  const std::optional<double> value = objective_value(run, search);
  figure.usable = value && std::isfinite(*value);
  if (figure.usable)
    figure.value = *value;
  else
    figure.problem = "the record has no " + search_objective_name(search.objective);
  return figure;
}

Standing standing_of(const std::vector<TrialFigure>& figures, const SearchSettings& search,
                     const Estimator& estimator) {
  Standing standing;
  std::vector<double> values, trained, losses;
  std::size_t reached = 0;
  for (const auto& figure : figures) {
    if (!figure.usable) {
      standing.note = figure.problem;
      continue;
    }
    reached += figure.reached ? 1 : 0;
    values.push_back(figure.reached ? figure.value : figure.at_least);
    if (!figure.reached) trained.push_back(figure.at_least);
    losses.push_back(figure.final_loss);
  }
  standing.values = static_cast<int>(values.size());
  if (values.empty()) return standing;
  standing.usable = true;
  standing.note.clear();
  standing.final_loss = percentile(losses, 50);
  if (2 * reached < values.size()) {  // most runs did not get there: a lower bound only
    standing.reached = false;
    standing.value = std::numeric_limits<double>::infinity();
    standing.low = percentile(trained, 50);
    standing.high = standing.value;
    standing.width = standing.value;
    return standing;
  }
  const Direction direction =
      search.higher_is_better() ? Direction::kHigherIsFaster : Direction::kLowerIsFaster;
  const PointEstimate e = estimate_point(values, estimator, direction);
  standing.value = e.value;
  standing.low = e.low;
  standing.high = e.high;
  if (values.size() == 1 || e.low == e.high) {
    standing.low = e.value * (1 - search.noise_floor);
    standing.high = e.value * (1 + search.noise_floor);
    // A slow spell makes a speed read low and a time read high, by up to its slowdown.
    const double slowdown = values.size() == 1 ? figures_slowdown(figures) : 1.0;
    if (search.higher_is_better())
      standing.high = std::max(standing.high, e.value * slowdown);
    else
      standing.low = std::min(standing.low, e.value / slowdown);
  }
  standing.width = e.value != 0 ? (standing.high - standing.low) / 2 / std::abs(e.value) : 0;
  return standing;
}

bool clearly_worse(const Standing& other, const Standing& best, const SearchSettings& search) {
  if (!best.usable || !best.reached) return false;
  if (!other.usable) return true;
  return search.higher_is_better() ? other.high < best.low : other.low > best.high;
}

bool ranks_before(const Standing& a, const Standing& b, const SearchSettings& search) {
  if (a.usable != b.usable) return a.usable;
  if (a.reached != b.reached) return a.reached;
  if (!a.reached) return a.final_loss < b.final_loss;
  return search.higher_is_better() ? a.value > b.value : a.value < b.value;
}

std::string standing_text(const Standing& standing, const SearchSettings& search) {
  if (!standing.usable) return "no figure (" + standing.note + ")";
  char text[160];
  switch (search.objective) {
    case SearchObjective::kSamplesPerS:
      std::snprintf(text, sizeof text, "%s [%s, %s] samples/s", human_count(standing.value).c_str(),
                    human_count(standing.low).c_str(), human_count(standing.high).c_str());
      break;
    case SearchObjective::kBusbw:
      std::snprintf(text, sizeof text, "%s [%s, %s]", human_bandwidth(standing.value).c_str(),
                    human_bandwidth(standing.low).c_str(), human_bandwidth(standing.high).c_str());
      break;
    case SearchObjective::kAuroc:
      std::snprintf(text, sizeof text, "AUROC %.3f [%.3f, %.3f]", standing.value, standing.low,
                    standing.high);
      break;
    case SearchObjective::kTimeToTarget:
      if (standing.reached)
        std::snprintf(text, sizeof text, "%.3g s [%.3g, %.3g] to the target", standing.value,
                      standing.low, standing.high);
      else
        std::snprintf(text, sizeof text, "target not reached in %.3g s (final loss %.4g)",
                      standing.low, standing.final_loss);
      break;
  }
  return text;
}

}  // namespace harness
