#include "results/aggregates_csv.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "metrics/statistics.h"
#include "results/file_writing.h"
#include "results/point_figures.h"

namespace harness {
namespace {

struct Point {
  const TrialRun* first = nullptr;  // its first record: identity columns
  PointFigures figures;
};

// Numbers as a person writes them (200, not 200.0), with ten significant digits.
std::string number_cell(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string identity(const TrialRun& run) {
  const TrialIdentity& id = run.identity;
  std::string axes;
  for (const auto& item : id.axes.items())
    axes += (axes.empty() ? "" : " ") + item.key() + "=" +
            (item.value().is_string() ? item.value().get<std::string>() : item.value().dump());
  const BackendRecord backend = run.backend.value_or(BackendRecord{});
  std::ostringstream out;
  out << csv_cell(id.part) << "," << csv_cell(id.point) << "," << csv_cell(id.kind) << ","
      << id.world_size << "," << csv_cell(backend.name) << "," << csv_cell(backend.algorithm) << ","
      << csv_cell(axes);
  return out.str();
}

}  // namespace

std::string aggregates_csv(const std::vector<TrialRun>& runs, const Estimator& estimator) {
  std::vector<std::string> order;
  std::map<std::string, Point> points;
  for (const auto& run : runs) {
    if (!run.measured()) continue;
    const std::string& key = run.identity.point.empty() ? run.identity.key : run.identity.point;
    auto [it, added] = points.try_emplace(key);
    if (added) {
      it->second.first = &run;
      order.push_back(key);
    }
    collect_point_figures(run, it->second.figures);
  }
  std::ostringstream csv;
  csv << "part,point,kind,world_size,backend,algorithm,axes,figure,bytes,n,median,min,max,"
         "ci_low,ci_high,ci_coverage,estimator,estimate,estimate_low,estimate_high\n";
  for (const auto& key : order) {
    const Point& point = points[key];
    for (const auto& [figure, values] : point.figures) {
      const SampleSummary s = summarise(values);
      const Direction direction = figure_direction(figure.first);
      const PointEstimate e = estimate_point(values, estimator, direction);
      const bool k_best =
          estimator.kind == EstimatorKind::kKBest && direction != Direction::kNotASpeed;
      csv << identity(*point.first) << "," << figure.first << "," << figure.second << "," << s.n
          << "," << number_cell(s.median) << "," << number_cell(s.min) << "," << number_cell(s.max)
          << "," << number_cell(s.median_ci.low) << "," << number_cell(s.median_ci.high) << ","
          << number_cell(s.median_ci.coverage) << "," << (k_best ? "k_best" : "median") << ","
          << number_cell(e.value) << "," << number_cell(e.low) << "," << number_cell(e.high)
          << "\n";
    }
  }
  return csv.str();
}

std::string AggregatesCsv::contents(const std::vector<TrialRun>& all) const {
  return aggregates_csv(all, estimator_);
}

}  // namespace harness
