#include "results/console_reporter.h"

#include <algorithm>
#include <sstream>

#include "common/brief.h"
#include "common/human_units.h"
#include "record/collective_point.h"
#include "record/record_json.h"
#include "spec/axes_text.h"

namespace harness {
namespace {

std::string number(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// "402k [398k, 410k]": a figure and its interval, each in the formatter's units.
template <typename Format>
std::string with_interval(double value, double low, double high, Format format) {
  return format(value) + " [" + format(low) + ", " + format(high) + "]";
}

// A training trial's headline: samples/s with its interval, and the detection quality (over
// test points where the data is a series).
std::string train_headline(const TrainFigures& train) {
  std::string text = "-";
  if (const auto& t = train.throughput)
    text = with_interval(t->samples_per_s, t->ci95_low, t->ci95_high, human_count);
  text += " samples/s";
  const std::optional<double> auroc = train.points_auroc ? train.points_auroc : train.auroc;
  if (auroc) text += "  auroc " + number(*auroc, "%.3f");
  return text;
}

// A collective trial's headline: busbw at its largest message size, with its interval.
std::string collective_headline(const CollectiveFigures& collective) {
  if (collective.points.empty()) return "";
  const CollectivePoint& last = collective.points.back();
  return "busbw " +
         with_interval(last.busbw_gbps, last.busbw_ci_low_gbps, last.busbw_ci_high_gbps,
                       human_bandwidth) +
         " at " + human_bytes(last.bytes);
}

// A replay's headline: its median step with its interval, beside the captured job's own.
std::string replay_headline(const ReplayFigures& replay) {
  const StepTimesRecord& step = replay.step_time_ms;
  const auto ms = [](double value) { return number(value, "%.1f"); };
  return "step " + with_interval(step.p50, step.ci95_low, step.ci95_high, ms) +
         " ms (the job's own: " + ms(replay.job_step_ms) + " ms)";
}

std::string headline(const TrialRun& run) {
  if (run.train && run.train->timed) return train_headline(*run.train);
  if (run.replay) return replay_headline(*run.replay);
  if (run.collective) return collective_headline(*run.collective);
  return "";
}

}  // namespace

namespace {

// A point's value as the console shows it: numbers by the field's format, "n/a" for an
// unchecked #wrong, booleans as yes/no, text as it is.
std::string cell_text(const Json& value, const PointField& field) {
  if (value.is_null()) return "n/a";
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number()) return number(value.get<double>(), field.format);
  return json_text(value);
}

std::string padded(const std::string& text, int width) {
  char cell[96];
  std::snprintf(cell, sizeof cell, "%*s", width, text.c_str());
  return cell;
}

}  // namespace

std::string collective_table(const CollectiveFigures& collective) {
  std::string header = "  ", rows;
  for (const auto& field : collective_point_fields()) {
    header += padded(field.header, field.width);
    if (std::string(field.key) == "count") header += "  type redop";  // as nccl-tests prints
  }
  for (const CollectivePoint& point : collective.points) {
    const Json fields = to_json(point);  // each cell as the record spells it
    rows += "\n  ";
    for (const auto& field : collective_point_fields()) {
      rows += padded(cell_text(fields[field.key], field), field.width);
      if (std::string(field.key) == "count")
        rows += " " + padded(collective.dtype, 5) + " " + padded(collective.op, 5);
    }
  }
  return header + rows + "\n  (algbw, busbw in GB/s from the median time of the slowest rank; " +
         collective.timing + " timing; mean = nccl-tests' figure)";
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

void ConsoleReporter::trial_finished(const TrialRun& run, std::size_t position) {
  ++finished_;
  seconds_spent_ += run.end.wall_time_s;
  const std::size_t left = total_ > position + 1 ? total_ - position - 1 : 0;
  const double eta = finished_ ? seconds_spent_ / finished_ * left : 0;
  std::ostringstream text;
  text << label(position) << " " << trial_status_name(run.end.status) << "  "
       << trial_label(run.identity.axes);
  if (run.identity.repetition > 0) text << " rep=" << run.identity.repetition;
  const std::string figure = headline(run);
  if (!figure.empty()) text << "  " << figure;
  if (!run.end.reason.empty()) text << "  (" << brief(run.end.reason, 120) << ")";
  if (run.verdict.noisy) {
    ++noisy_;
    text << "  noisy: " << run.verdict.noisy_because;
  }
  text << "  " << human_elapsed(run.end.wall_time_s);
  if (total_ > 0) text << ", ETA " << human_elapsed(eta);
  message(text.str());
  if (verbosity_ != Verbosity::kVerbose) return;
  if (run.collective) detail(collective_table(*run.collective));
  if (run.train && run.train->step_time_ms)
    detail("      step ms: " + to_json(*run.train->step_time_ms).dump());
}

}  // namespace harness
