#include "results/console_reporter.h"

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

}  // namespace

std::string collective_table(const Json& record) {
  const Json& s = record["settings"];
  const auto& fields = collective_point_fields();
  std::string out = "  ";
  char cell[64];
  for (std::size_t f = 0; f < fields.size(); ++f) {
    std::snprintf(cell, sizeof cell, "%*s", fields[f].width, fields[f].header);
    out += cell;
    if (f == 1) out += "  type redop";  // after size and count, as nccl-tests prints them
  }
  for (const auto& point : record["points"]) {
    out += "\n  ";
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const Json& value = point.value(fields[f].key, Json());
      std::snprintf(cell, sizeof cell, "%*s", fields[f].width,
                    value.is_null() ? "n/a" : number(value, fields[f].format).c_str());
      out += cell;
      if (f == 1) {
        std::snprintf(cell, sizeof cell, " %5s %5s", text_of(s["dtype"]).c_str(),
                      text_of(s["op"]).c_str());
        out += cell;
      }
    }
  }
  return out + "\n  (algbw, busbw in GB/s; time = mean over iterations of the slowest rank)";
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
    text << "  " << number(field(record, "throughput", "samples_per_s"), "%.0f") << " samples/s"
         << "  loss " << number(field(record, "loss", "final"), "%.5g") << "  auroc "
         << number(field(record, "detection", "auroc"), "%.4f");
    if (record.contains("detection_points"))
      text << " (points " << number(field(record, "detection_points", "auroc"), "%.4f") << ")";
  }
  if (!record["reason"].get<std::string>().empty())
    text << "  (" << record["reason"].get<std::string>() << ")";
  text << "  " << number(record["wall_time_s"], "%.1f") << " s, ETA " << number(Json(eta), "%.0f")
       << " s";
  message(text.str());
  if (record.contains("points")) message(collective_table(record));
  if (verbosity_ == Verbosity::kVerbose && record.contains("step_time_ms"))
    detail("      step ms: " + record["step_time_ms"].dump());
}

}  // namespace harness
