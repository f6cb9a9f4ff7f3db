#include "results/point_figures.h"

namespace harness {
namespace {

const Json& at_path(const Json& record, const char* a, const char* b) {
  static const Json none;
  if (!record.contains(a) || !record[a].is_object() || !record[a].contains(b)) return none;
  return record[a][b];
}

void add(PointFigures& figures, const std::string& figure, std::uint64_t bytes, const Json& value) {
  if (value.is_number()) figures[{figure, bytes}].push_back(value.get<double>());
}

}  // namespace

bool measured(const Json& record) {
  const std::string status = record.value("status", "");
  return status == "ok" || status == "inconsistent";
}

void collect_point_figures(const Json& record, PointFigures& figures) {
  add(figures, "samples_per_s", 0, at_path(record, "throughput", "samples_per_s"));
  add(figures, "auroc", 0, at_path(record, "detection", "auroc"));
  add(figures, "final_loss", 0, at_path(record, "loss", "final"));
  for (const auto& p : record.value("points", Json::array())) {
    const auto bytes = p.value("bytes", std::uint64_t{0});
    add(figures, "busbw_gbps", bytes, p.value("busbw_gbps", Json()));
    add(figures, "time_us", bytes, p.value("time_us", Json()));
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
