#include "results/console_reporter.h"

#include <algorithm>
#include <sstream>

#include "common/brief.h"
#include "common/human_units.h"
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
    return "a slow spell the quiet gate could not wait out (speed canary " +
           number(field(record, "machine_speed", "slowdown"), "%.2f") + "x its fastest)";
  return "timings vary beyond noise_cv_threshold (cv " + noisy_cv_text(record) + ")";
}

// "402k [398k, 410k]": a figure and its interval, each in the formatter's units.
template <typename Format>
std::string with_interval(const Json& value, const Json& low, const Json& high, Format format) {
  if (!value.is_number()) return "-";
  std::string text = format(value.get<double>());
  if (low.is_number() && high.is_number())
    text += " [" + format(low.get<double>()) + ", " + format(high.get<double>()) + "]";
  return text;
}

// A training trial's headline: samples/s with its interval, and the detection quality.
std::string train_headline(const Json& record) {
  const Json ci = field(record, "throughput", "samples_per_s_ci95");
  const bool has_ci = ci.is_array() && ci.size() == 2;
  std::string text = with_interval(field(record, "throughput", "samples_per_s"),
                                   has_ci ? ci[0] : Json(), has_ci ? ci[1] : Json(), human_count) +
                     " samples/s";
  const Json& auroc = record.contains("detection_points")
                          ? field(record, "detection_points", "auroc")
                          : field(record, "detection", "auroc");
  if (auroc.is_number()) text += "  auroc " + number(auroc, "%.3f");
  return text;
}

// A collective trial's headline: busbw at its largest message size, with its interval.
std::string collective_headline(const Json& record) {
  const Json& points = record["points"];
  if (!points.is_array() || points.empty()) return "";
  const Json& last = points.back();
  return "busbw " +
         with_interval(last.value("busbw_gbps", Json()), last.value("busbw_ci_low_gbps", Json()),
                       last.value("busbw_ci_high_gbps", Json()), human_bandwidth) +
         " at " + human_bytes(last.value("bytes", std::uint64_t{0}));
}

std::string headline(const Json& record) {
  if (record.contains("throughput")) return train_headline(record);
  if (record.contains("points")) return collective_headline(record);
  return "";
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

namespace {

// An object axis without JSON's quotes: {algorithm:ring,receive:auto}.
std::string compact(const Json& value) {
  if (!value.is_object()) return text_of(value);
  std::string text;
  for (const auto& item : value.items())
    text += (text.empty() ? "" : ",") + item.key() + ":" + compact(item.value());
  return "{" + text + "}";
}

}  // namespace

std::string trial_label(const Json& axes) {
  std::string text;
  const auto add = [&text](const std::string& part) {
    text += (text.empty() ? "" : " ") + part;
  };
  for (const auto& item : axes.items()) {
    if (item.key() == "backend_params" && axes.contains("backend")) continue;  // with backend
    if (item.key() != "backend") {
      add(item.key() + "=" + compact(item.value()));
      continue;
    }
    // The backend as the report names it (gloo:ring), then its other parameters.
    std::string backend = "backend=" + text_of(item.value());
    const Json params = axes.value("backend_params", Json::object());
    for (const auto& param : params.items())
      if (param.key() == "algorithm")
        backend += ":" + text_of(param.value());
      else
        backend += " " + param.key() + "=" + compact(param.value());
    add(backend);
  }
  return text.empty() ? "(no sweep)" : text;
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
  if (total_ == 0) return "[" + std::to_string(position + 1) + "]";  // open-ended: a search
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
  // By default a trial gets one line, when it ends; -v also says when it starts.
  if (verbosity_ != Verbosity::kVerbose) return;
  message(label(position) + " start  " + describe_axes(trial.axes) +
          " rep=" + std::to_string(trial.repetition) + " seed=" + std::to_string(trial.seed));
}

void ConsoleReporter::trial_finished(const Json& record, std::size_t position) {
  ++finished_;
  seconds_spent_ += record.value("wall_time_s", 0.0);
  const std::size_t left = total_ > position + 1 ? total_ - position - 1 : 0;
  const double eta = finished_ ? seconds_spent_ / finished_ * left : 0;
  std::ostringstream text;
  text << label(position) << " " << record["status"].get<std::string>() << "  "
       << trial_label(record.value("axes", Json::object()));
  if (record.value("repetition", 0) > 0) text << " rep=" << record["repetition"].get<int>();
  const std::string figure = headline(record);
  if (!figure.empty()) text << "  " << figure;
  const std::string reason = record.value("reason", std::string());
  if (!reason.empty()) text << "  (" << brief(reason, 120) << ")";
  if (record.value("noisy", false)) {
    ++noisy_;
    text << "  noisy: " << noise_reason(record);
  }
  text << "  " << human_elapsed(record.value("wall_time_s", 0.0));
  if (total_ > 0) text << ", ETA " << human_elapsed(eta);
  message(text.str());
  if (verbosity_ != Verbosity::kVerbose) return;
  if (record.contains("points")) detail(collective_table(record));
  if (record.contains("step_time_ms")) detail("      step ms: " + record["step_time_ms"].dump());
}

}  // namespace harness
