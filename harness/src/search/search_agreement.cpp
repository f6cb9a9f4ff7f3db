#include "search/search_agreement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace harness {
namespace {

const Json& member(const Json& object, const char* key) {
  static const Json none;
  if (!object.is_object()) return none;
  const auto found = object.find(key);
  return found == object.end() ? none : *found;
}

std::optional<double> number(const Json& value) {
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

// The objective's figure of one measured record (unset: not measured, or no single value).
std::optional<double> value_of(const Json& record, const Json& search) {
  const Json& objective = member(search, "objective");
  if (objective == "samples_per_s")
    return number(member(member(record, "throughput"), "samples_per_s"));
  if (objective == "auroc") return number(member(member(record, "detection"), "auroc"));
  if (objective != "busbw") return std::nullopt;  // time_to_target: computed, not read back
  const Json& points = member(record, "points");
  if (!points.is_array() || points.empty()) return std::nullopt;
  const Json& wanted = member(search, "message_bytes");  // unset: the largest size
  const Json* chosen = nullptr;
  for (const Json& point : points) {
    const double bytes = number(member(point, "bytes")).value_or(0);
    if (wanted.is_number() && wanted.get<double>() != 0) {
      if (bytes == wanted.get<double>() && !chosen) chosen = &point;
    } else if (!chosen || bytes >= number(member(*chosen, "bytes")).value_or(0)) {
      chosen = &point;
    }
  }
  return chosen ? number(member(*chosen, "busbw_gbps")) : std::nullopt;
}

// A record's configuration as search.json names it: its swept axes, and its part in a
// multi-part experiment; unordered, as names compare whatever their order.
nlohmann::json configuration(const Json& record) {
  nlohmann::json axes = member(record, "axes").is_object()
                            ? nlohmann::json::parse(member(record, "axes").dump())
                            : nlohmann::json::object();
  const Json& part = member(record, "part");
  if (part.is_string() && !part.get<std::string>().empty()) axes["part"] = part.get<std::string>();
  return axes;
}

std::string axes_text(const Json& axes) {
  std::string text;
  for (const auto& [key, value] : axes.items())
    text += (text.empty() ? "" : " ") + key + "=" +
            (value.is_string() ? value.get<std::string>() : value.dump());
  return text.empty() ? "(the settings)" : text;
}

std::string general(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

bool figure_stands(const Json& figure) {
  if (!figure.is_object() || figure.empty()) return false;
  const Json& problem = member(figure, "problem");
  if (problem.is_string() ? !problem.get<std::string>().empty() : !problem.is_null()) return false;
  return member(figure, "reached") != Json(false);
}

std::string disagreement_of(const Json& axes, const Json& figure, const char* name,
                            const Json& search, const std::vector<Json>& records) {
  if (!axes.is_object() || !figure_stands(figure)) return "";
  const nlohmann::json wanted = nlohmann::json::parse(axes.dump());
  std::vector<double> values;
  for (const Json& record : records)
    if (member(record, "status") == "ok" && configuration(record) == wanted)
      if (const auto value = value_of(record, search)) values.push_back(*value);
  if (values.empty())
    return std::string("its ") + name + " " + axes_text(axes) +
           " has no measured trial in trials.jsonl";
  const double low = *std::min_element(values.begin(), values.end());
  const double high = *std::max_element(values.begin(), values.end());
  const auto value = number(member(figure, "value"));
  if (value && low - 1e-9 * std::fabs(low) <= *value && *value <= high + 1e-9 * std::fabs(high))
    return "";
  return std::string("its ") + name + " " + axes_text(axes) + " has the figure " +
         member(figure, "value").dump() + ", but its " + std::to_string(values.size()) +
         " trial(s) in trials.jsonl measured " + general(low) + " to " + general(high) +
         "; search.json was changed after the run";
}

}  // namespace

std::string search_disagreement(const Json& search, const std::vector<Json>& records) {
  if (member(search, "objective") == "time_to_target") return "";  // computed, not read back
  const std::string winner = disagreement_of(
      member(search, "winner"), member(search, "winner_figure"), "winner", search, records);
  if (!winner.empty()) return winner;
  return disagreement_of(member(search, "runner_up"), member(search, "runner_up_figure"),
                         "runner-up", search, records);
}

}  // namespace harness
