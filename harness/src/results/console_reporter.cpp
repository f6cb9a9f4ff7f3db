#include "results/console_reporter.h"

#include <algorithm>
#include <sstream>

#include "record/collective_point.h"

namespace harness {
namespace {

std::string number(const Json& value, const char* format) {
  if (!value.is_number()) return "-";
  char text[64];
  std::snprintf(text, sizeof text, format, value.get<double>());
  return text;
}

std::string text_of(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

const Json& field(const Json& record, const char* a, const char* b) {
  static const Json none;
  if (!record.contains(a) || !record[a].is_object() || !record[a].contains(b)) return none;
  return record[a][b];
}

// The largest cv behind a noisy mark, for the warning.
std::string noisy_cv_text(const Json& record) {
  double cv = 0;
  if (record.contains("step_time_ms")) cv = record["step_time_ms"].value("cv", 0.0);
  for (const auto& point : record.value("points", Json::array()))
    cv = std::max(cv, point.value("cv", 0.0));
  return number(Json(cv), "%.2f");
}

// Why a trial is marked noisy, for the warning: a slow spell the quiet gate could not wait
// out (trial/quiet_gate.h), or timings that vary beyond noise_cv_threshold (or stalls).
std::string noise_reason(const Json& record) {
  const Json& not_quiet = field(record, "machine_speed", "not_quiet");
  if (not_quiet.is_number() && not_quiet.get<int>() > 0)
    return "measured in a slow spell the quiet gate could not wait out (speed canary " +
           number(field(record, "machine_speed", "slowdown"), "%.2f") +
           "x its fastest; quiet_wait_s spent)";
  return "its timings vary more than noise_cv_threshold allows (cv " + noisy_cv_text(record) +
         ")";
}

}  // namespace

namespace {

// A point's value as the console shows it: numbers by the field's format, "n/a" for an
// unchecked #wrong, booleans as yes/no, text as it is.
std::string cell_text(const Json& value, const PointField& field) {
  if (value.is_null()) return "n/a";
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number()) return number(value, field.format);
  return text_of(value);
}

std::string padded(const std::string& text, int width) {
  char cell[96];
  std::snprintf(cell, sizeof cell, "%*s", width, text.c_str());
  return cell;
}

}  // namespace

std::string collective_table(const Json& record) {
  const Json& s = record["settings"];
  std::string header = "  ", rows;
  for (const auto& field : collective_point_fields()) {
    if (field.width == 0) continue;
    header += padded(field.header, field.width);
    if (std::string(field.key) == "count") header += "  type redop";  // as nccl-tests prints
  }
  for (const auto& point : record["points"]) {
    rows += "\n  ";
    for (const auto& field : collective_point_fields()) {
      if (field.width == 0) continue;
      rows += padded(cell_text(point.value(field.key, Json()), field), field.width);
      if (std::string(field.key) == "count")
        rows += " " + padded(text_of(s["dtype"]), 5) + " " + padded(text_of(s["op"]), 5);
    }
  }
  const std::string timing = record["points"].empty() ? "" : text_of(record["points"][0]["timing"]);
  return header + rows + "\n  (algbw, busbw in GB/s from the median time of the slowest rank; " +
         timing + " timing; mean = nccl-tests' figure)";
}

std::string describe_axes(const Json& axes) {
  std::string text;
  for (const auto& item : axes.items()) {
    text += (text.empty() ? "" : " ") + item.key() + "=" + text_of(item.value());
  }
  return text.empty() ? "(no sweep)" : text;
}

ConsoleReporter::ConsoleReporter(Verbosity verbosity, std::size_t total_trials, std::FILE* out)
    : verbosity_(verbosity), total_(total_trials), out_(out) {}

std::string ConsoleReporter::label(std::size_t position) const {
  return "[" + std::to_string(position + 1) + "/" + std::to_string(total_) + "]";
}

void ConsoleReporter::message(const std::string& text) const {
  if (verbosity_ == Verbosity::kQuiet) return;
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void ConsoleReporter::detail(const std::string& text) const {
  if (verbosity_ == Verbosity::kVerbose) message(text);
}

void ConsoleReporter::skipped_as_done(std::size_t count) const {
  if (count)
    message("resume: " + std::to_string(count) + " trial(s) already recorded, skipping them");
}

void ConsoleReporter::trial_started(const Trial& trial, std::size_t position) {
  std::string text = label(position) + " start  " + describe_axes(trial.axes);
  if (trial.repetition > 0 || verbosity_ == Verbosity::kVerbose)
    text += " rep=" + std::to_string(trial.repetition) + " seed=" + std::to_string(trial.seed);
  message(text);
}

void ConsoleReporter::trial_finished(const Json& record, std::size_t position) {
  ++finished_;
  seconds_spent_ += record.value("wall_time_s", 0.0);
  const std::size_t left = total_ > position + 1 ? total_ - position - 1 : 0;
  const double eta = finished_ ? seconds_spent_ / finished_ * left : 0;
  std::ostringstream text;
  text << label(position) << " " << record["status"].get<std::string>();
  if (record.contains("throughput")) {
    const Json ci = field(record, "throughput", "samples_per_s_ci95");
    text << "  " << number(field(record, "throughput", "samples_per_s"), "%.0f") << " samples/s";
    if (ci.is_array() && ci.size() == 2)
      text << " [" << number(ci[0], "%.0f") << ", " << number(ci[1], "%.0f") << "]";
    text << "  loss " << number(field(record, "loss", "final"), "%.5g") << "  auroc "
         << number(field(record, "detection", "auroc"), "%.4f");
    if (record.contains("detection_points"))
      text << " (points " << number(field(record, "detection_points", "auroc"), "%.4f") << ")";
  }
  if (!record["reason"].get<std::string>().empty())
    text << "  (" << record["reason"].get<std::string>() << ")";
  if (record.value("noisy", false)) text << "  NOISY";
  text << "  " << number(record["wall_time_s"], "%.1f") << " s, ETA " << number(Json(eta), "%.0f")
       << " s";
  message(text.str());
  if (verbosity_ != Verbosity::kQuiet && record.value("noisy", false))
    std::fprintf(stderr,
                 "harness: warning: %s noisy: %s; the machine was busy, treat its numbers with "
                 "care\n",
                 label(position).c_str(), noise_reason(record).c_str());
  if (record.contains("points")) message(collective_table(record));
  if (verbosity_ == Verbosity::kVerbose && record.contains("step_time_ms"))
    detail("      step ms: " + record["step_time_ms"].dump());
}

}  // namespace harness
