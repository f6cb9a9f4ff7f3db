#include "results/point_figures.h"

namespace harness {
namespace {

void add(PointFigures& figures, const std::string& figure, std::uint64_t bytes,
         const std::optional<double>& value) {
  if (value) figures[{figure, bytes}].push_back(*value);
}

}  // namespace

void collect_point_figures(const TrialRun& run, PointFigures& figures) {
  if (run.train) {
    const TrainFigures& train = *run.train;
    if (train.throughput) add(figures, "samples_per_s", 0, train.throughput->samples_per_s);
    add(figures, "auroc", 0, train.auroc);
    add(figures, "final_loss", 0, train.final_loss);
  }
  if (!run.collective) return;
  for (const CollectivePoint& point : run.collective->points) {
    add(figures, "busbw_gbps", point.bytes, point.busbw_gbps);
    add(figures, "time_us", point.bytes, point.p50_us);
  }
}

bool is_speed_figure(const std::string& figure) {
  return figure == "samples_per_s" || figure == "busbw_gbps";
}

Direction figure_direction(const std::string& figure) {
  if (is_speed_figure(figure)) return Direction::kHigherIsFaster;
  if (figure == "time_us") return Direction::kLowerIsFaster;
  return Direction::kNotASpeed;
}

}  // namespace harness
