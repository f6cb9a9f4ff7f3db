#include "search/objective_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/human_units.h"
#include "metrics/statistics.h"
#include "results/point_figures.h"

namespace harness {
namespace {

const Json* find(const Json& object, const char* a, const char* b) {
  if (!object.contains(a) || !object[a].is_object() || !object[a].contains(b)) return nullptr;
  const Json& value = object[a][b];
  return value.is_number() ? &value : nullptr;
}

// The bus bandwidth at the chosen message size, or at the largest one measured.
const Json* busbw_of(const Json& record, const SearchSettings& search) {
  const Json* chosen = nullptr;
  std::uint64_t largest = 0;
  for (const auto& point : record.value("points", Json::array())) {
    const auto bytes = point.value("bytes", std::uint64_t{0});
    const bool wanted = search.message_bytes ? bytes == *search.message_bytes : bytes >= largest;
    if (wanted && point.contains("busbw_gbps") && point["busbw_gbps"].is_number()) {
      chosen = &point["busbw_gbps"];
      largest = bytes;
    }
  }
  return chosen;
}

// Seconds per training step in the timing phase: the measured step rate.
double step_seconds(const Json& record) {
  const Json* p50 = find(record, "step_time_ms", "p50");
  return p50 ? p50->get<double>() / 1000 : 0;
}

void time_to_target(const Json& record, const SearchSettings& search, TrialFigure* figure) {
  const double step_s = step_seconds(record);
  if (step_s <= 0) {
    figure->problem = "no measured step time";
    return;
  }
  const double trained_s = record.value("steps", 0.0) * step_s;
  if (search.target_auroc) {
    const Json* auroc = find(record, "detection", "auroc");
    figure->reached = auroc && auroc->get<double>() >= *search.target_auroc;
    figure->value = trained_s;
  } else {
    figure->reached = record.contains("target") && record["target"].value("reached", false);
    figure->value = figure->reached ? record["target"].value("steps", 0.0) * step_s : 0;
  }
  figure->at_least = trained_s;
  figure->usable = true;
}

}  // namespace

TrialFigure figure_of(const Json& record, const SearchSettings& search) {
  TrialFigure figure;
  if (!measured(record)) {
    figure.problem = record.value("status", "unknown") + ": " + record.value("reason", "");
    return figure;
  }
  if (const Json* loss = record.contains("loss") ? &record["loss"] : nullptr;
      loss && loss->is_object() && loss->contains("final") && (*loss)["final"].is_number())
    figure.final_loss = (*loss)["final"].get<double>();
  const Json* value = nullptr;
  switch (search.objective) {
    case SearchObjective::kSamplesPerS: value = find(record, "throughput", "samples_per_s"); break;
    case SearchObjective::kAuroc: value = find(record, "detection", "auroc"); break;
    case SearchObjective::kBusbw: value = busbw_of(record, search); break;
    case SearchObjective::kTimeToTarget: time_to_target(record, search, &figure); return figure;
  }
  figure.usable = value != nullptr && std::isfinite(value->get<double>());
  if (figure.usable)
    figure.value = value->get<double>();
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
