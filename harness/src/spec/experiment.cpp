#include "spec/experiment.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <regex>

#include "common/brief.h"
#include "common/input_error.h"
#include "common/watchdog_resolution.h"
#include "spec/did_you_mean.h"
#include "spec/enum_choice.h"
#include "spec/json_path.h"
#include "spec/json_structure.h"
#include "spec/settings_table.h"

namespace harness {
namespace {

std::vector<std::string> kind_names(const KindSchemas& kinds) {
  std::vector<std::string> names;
  for (const auto& kind : kinds) names.push_back(kind.name);
  return names;
}

std::string kind_help(const KindSchemas& kinds) {
  std::string help;
  for (const auto& kind : kinds)
    help += (help.empty() ? "" : "; ") + kind.name + ": " + kind.summary;
  return help;
}

const EnumChoice<TrialOrder> kTrialOrders[] = {{"sequential", TrialOrder::kSequential},
                                               {"interleaved", TrialOrder::kInterleaved},
                                               {"random", TrialOrder::kRandom}};
const EnumChoice<OversubscribedPoints> kOversubscribedPoints[] = {
    {"measure", OversubscribedPoints::kMeasure},
    {"once", OversubscribedPoints::kOnce},
    {"leave_out", OversubscribedPoints::kLeaveOut}};
const EnumChoice<EstimatorKind> kEstimators[] = {{"median", EstimatorKind::kMedian},
                                                 {"k_best", EstimatorKind::kKBest}};

const SettingsTable<AdaptiveRepetitions>& adaptive_table() {
  using S = AdaptiveRepetitions;
  static const auto table =
      SettingsTable<S>()
          .add("max_repetitions", &S::max_repetitions,
               "adaptive repetitions (0: off): after the planned ones, a point whose speed "
               "figures (training samples/s; busbw per message size) have a 95% interval of the "
               "median wider than +-target_ci runs again, a round at a time, up to this many "
               "repetitions in all",
               {0, 100000})
          .add("target_ci", &S::target_ci,
               "adaptive repetitions: how uncertain a point's speed figures may stay, relative "
               "to their estimate: the 95% interval of the median's half-width (median), or how "
               "far the k-th fastest repetition is from the fastest (k_best); 0.05: 5%",
               {1e-6, 10})
          .add("adaptive_budget_s", &S::budget_s,
               "adaptive repetitions: wall time the extra trials may take together; no extra "
               "trial starts once it is spent",
               {0, 1e7})
          .add("adaptive_patience", &S::patience,
               "adaptive repetitions: how many rounds in a row may settle no point before the "
               "rounds stop (a point the machine's drift keeps wide is not narrowed by more "
               "repetitions); 0: rounds go on to max_repetitions or the budget",
               {0, 100000});
  return table;
}

const SettingsTable<Estimator>& estimator_table() {
  using S = Estimator;
  static const auto table =
      SettingsTable<S>()
          .add_choice("estimator", &S::kind, kEstimators,
                      "a sweep point's figure over its repetitions (aggregates.csv, plots, "
                      "report): median (with its 95% interval) or k_best (the fastest "
                      "repetition, with the band down to the estimator_k-th fastest: noise on a "
                      "shared machine only slows)")
          .add("estimator_k", &S::k,
               "k_best: how many of the fastest repetitions must agree within target_ci",
               {2, 1000});
  return table;
}

// The top level's own settings, declared once; the structural fields (kind, settings, sweep,
// search, parts) are added around them by top_level_schema.
const SettingsTable<Experiment>& experiment_table() {
  using S = Experiment;
  static const auto table =
      SettingsTable<S>()
          .add("name", &S::name,
               "names the results folder results/<name>/ (letters, digits, . _ -)")
          .required()
          .add("description", &S::description, "free text, copied to meta.json")
          .add("seed", &S::seed, "base seed; repetition r of a trial uses seed + r", {0, 9.2e18})
          .add("repetitions", &S::repetitions,
               "how many times each sweep point runs, with different seeds", {1, 100000})
          .add_part("", &S::adaptive, adaptive_table())
          .add_part("", &S::estimator, estimator_table())
          .add("timeout_s", &S::timeout_s,
               "watchdog: a rank that has not finished a collective, barrier or training step "
               "after this many seconds is named, the trial recorded hung and the job ended (0: "
               "off; at least 1: the watchdog looks every 0.1 s and names a hang within about 2 "
               "s more)",
               {0, 1e7})
          .add("max_trials", &S::max_trials,
               "refuse experiments that expand to more trials than this (a typo in a sweep can "
               "make billions)",
               {1, 1e12})
          .add_choice("order", &S::order, kTrialOrders,
                      "trial order: sequential (each point's repetitions together), interleaved "
                      "(repetition r of every point before repetition r+1 of any), random (a "
                      "shuffle seeded by seed)")
          .add_choice("oversubscribed", &S::oversubscribed, kOversubscribedPoints,
                      "sweep points whose ranks would share CPUs on a host (more ranks than "
                      "CPUs there; their figures measure the sharing, and the report does not "
                      "rank them): measure (every repetition), once (one repetition, to show "
                      "that they work) or leave_out; the dry run and meta.json name them");
  return table;
}

}  // namespace

std::string oversubscribed_points_name(OversubscribedPoints rule) {
  return choice_word(rule, kOversubscribedPoints);
}

Schema top_level_schema(const KindSchemas& kinds) {
  using T = FieldType;
  const double inf = std::numeric_limits<double>::infinity();
  Schema schema = experiment_table().schema();
  // clang-format off
  const FieldSpec kind = {"kind", T::kString, kinds.front().name, -inf, inf, false,
                          kind_names(kinds), kind_help(kinds)};
  const Schema structure = {
      {"settings", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "the settings every trial starts from (fields per kind below)"},
      {"sweep", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "settings path -> list of values; trials are the cartesian product"},
      {"search", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "search the sweep for its best configuration instead of running all of it (fields "
       "below)"},
      {"parts", T::kObjectList, Json::array(), -inf, inf, false, {},
       "instead of kind/settings/sweep: a list of {name, kind, settings, sweep} run in order"},
  };
  // clang-format on
  schema.insert(schema.begin() + 2, kind);  // after name and description
  schema.insert(schema.end(), structure.begin(), structure.end());
  return schema;
}

namespace {

Schema part_schema(const KindSchemas& kinds) {
  using T = FieldType;
  const double inf = std::numeric_limits<double>::infinity();
  // clang-format off
  return {
      {"name", T::kString, nullptr, -inf, inf, false, {}, "names the part in records"},
      {"kind", T::kString, nullptr, -inf, inf, false, kind_names(kinds), "the part's kind"},
      {"settings", T::kFreeObject, Json::object(), -inf, inf, false, {}, "as at top level"},
      {"sweep", T::kFreeObject, Json::object(), -inf, inf, false, {}, "as at top level"},
  };
  // clang-format on
}

const Schema* schema_of(const KindSchemas& kinds, const std::string& name) {
  for (const auto& kind : kinds)
    if (kind.name == name) return kind.settings;
  return nullptr;  // unreachable: the kind field's choices are the kinds' names
}

void validate_sweep_values(const Schema& schema, const std::vector<std::string>& paths,
                           const Json& values, const std::string& pointer, ErrorList& errors) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Json& value = values[i];
    const std::string item = pointer + "/" + std::to_string(i);
    if (paths.size() == 1) {
      validate_value_at(schema, paths[0], value, item, errors);
    } else if (!value.is_array() || value.size() != paths.size()) {
      errors.add(item + ": a zipped axis of " + std::to_string(paths.size()) +
                 " paths needs an array of " + std::to_string(paths.size()) + " values, got " +
                 brief(value));
    } else {
      for (std::size_t p = 0; p < paths.size(); ++p)
        validate_value_at(schema, paths[p], value[p], item + "/" + std::to_string(p), errors);
    }
  }
}

// True when setting one path sets (part of) the other: the same path, or one inside the other.
bool paths_overlap(const std::string& a, const std::string& b) {
  const auto inside = [](const std::string& inner, const std::string& outer) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           inner[outer.size()] == '.';
  };
  return a == b || inside(a, b) || inside(b, a);
}

// Two axes setting the same setting would silently let the last one win.
void check_axis_paths_distinct(const std::string& pointer, const std::vector<std::string>& paths,
                               std::vector<std::pair<std::string, std::string>>* swept,
                               ErrorList& errors) {
  for (const auto& path : paths) {
    for (const auto& [earlier, where] : *swept)
      if (paths_overlap(path, earlier))
        errors.add(pointer + ": \"" + brief(path) + "\" is already swept " +
                   (where == pointer ? "earlier in this axis" : "by " + where) +
                   (path == earlier ? "" : " (\"" + brief(earlier) + "\")") +
                   "; a setting can be swept by one axis only (zip paths as \"a,b\" to vary "
                   "them together)");
    swept->emplace_back(path, pointer);
  }
}

// "sweep": {"optimizer": {"lr": [...]}} instead of {"optimizer.lr": [...]}.
std::string nested_sweep_hint(const std::string& key, const Json& value) {
  if (!value.is_object() || value.size() != 1) return "";
  const std::string inner = key + "." + value.begin().key();
  return "; a sweep key is a whole settings path: \"" + brief(inner) +
         "\": [...] (on the command line: --set 'sweep." + brief(inner) + "=[...]')";
}

void validate_sweep(const Schema& schema, const Json& sweep, const std::string& prefix,
                    ErrorList& errors) {
  std::vector<std::string> known;
  for (const auto& spec : schema) known.push_back(spec.path);
  std::vector<std::pair<std::string, std::string>> swept;  // path -> the axis sweeping it
  for (const auto& axis : sweep.items()) {
    const std::string pointer = prefix + "/sweep/" + axis.key();
    const auto paths = axis_paths(axis.key());
    bool paths_ok = true;
    for (const auto& path : paths)
      if (!schema_has_path(schema, path)) {
        errors.add(pointer + ": unknown settings path \"" + brief(path) + "\"" +
                   did_you_mean(path, known));
        paths_ok = false;
      }
    if (!paths_ok) continue;
    check_axis_paths_distinct(pointer, paths, &swept, errors);
    if (!axis.value().is_array() || axis.value().empty()) {
      errors.add(pointer + ": expected a non-empty array of values, got " + brief(axis.value()) +
                 nested_sweep_hint(axis.key(), axis.value()));
      continue;
    }
    validate_sweep_values(schema, paths, axis.value(), pointer, errors);
  }
}

// Part names tell parts apart in records, reports and --resume.
void check_part_names_distinct(const Experiment& experiment, ErrorList& errors) {
  for (std::size_t i = 0; i < experiment.parts.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (experiment.parts[i].name == experiment.parts[j].name) {
        errors.add(experiment.parts[i].pointer + "/name: \"" + brief(experiment.parts[i].name) +
                   "\" is also the name of " + experiment.parts[j].pointer +
                   "; every part needs its own name");
        break;
      }
}

void validate_part(const ExperimentPart& part, ErrorList& errors) {
  validate_object(*part.schema, "", part.settings, part.pointer + "/settings",
                  /*check_required=*/false, errors);
  validate_sweep(*part.schema, part.sweep, part.pointer, errors);
}

// JSON text is UTF-8; the parser checks files, this checks command-line text.
bool valid_utf8(const std::string& text) {
  try {
    (void)Json(text).dump();
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

void apply_override(Json& document, const std::string& assignment, ErrorList& errors) {
  if (!valid_utf8(assignment)) {
    errors.add("--set: not valid UTF-8 text (" + brief(Json(assignment)) + ")");
    return;
  }
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    errors.add("--set " + brief(assignment) + ": expected path=value, e.g. settings.batch_size=64");
    return;
  }
  const std::string path = assignment.substr(0, equals);
  Json value = parse_loose_value(assignment.substr(equals + 1));
  // A sweep key is a whole settings path ("optimizer.lr"), so sweep.optimizer.lr names the
  // key "optimizer.lr" inside "sweep", not a nested object.
  const std::string sweep_prefix = "sweep.";
  if (path.rfind(sweep_prefix, 0) == 0 && path.size() > sweep_prefix.size()) {
    Json& sweep = document["sweep"];
    if (sweep.is_null()) sweep = Json::object();
    if (sweep.is_object())
      sweep[path.substr(sweep_prefix.size())] = std::move(value);
    else
      errors.add("--set " + brief(assignment) + ": \"sweep\" is not an object");
    return;
  }
  if (!set_path(document, path, std::move(value)))
    errors.add("--set " + brief(assignment) + ": \"" + brief(path) +
               "\" runs through a value that is not an object");
}

Json parse_json(const std::string& text, const std::string& source) {
  check_json_structure(text, source);
  try {
    return Json::parse(text);
  } catch (const Json::out_of_range& e) {
    // A number too large for a double (1e999): the parser names the literal, not the place.
    const std::string what = e.what();
    const auto quote = what.find('\'');
    const std::string literal =
        quote == std::string::npos ? ""
                                   : what.substr(quote + 1, what.find('\'', quote + 1) - quote - 1);
    const auto offset = literal.empty() ? std::string::npos : text.find(literal);
    const TextPosition at = position_of(text, offset == std::string::npos ? 0 : offset);
    throw InputError(source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                     ": number " + literal + " is out of range (a double holds up to ~1.8e308)");
  } catch (const Json::parse_error& e) {
    const TextPosition at = position_of(text, e.byte == 0 ? 0 : e.byte - 1);
    std::string what = e.what();
    // nlohmann's text repeats the byte offset; keep only the part after "parse error ... : "
    const auto colon = what.find(": ", what.find("parse error"));
    throw InputError(
        source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
        ": malformed JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

// The parts of a file: the top-level kind/settings/sweep, or each entry of "parts".
void read_parts(const Json& top, const Json& document, const KindSchemas& kinds,
                Experiment* experiment, ErrorList& errors) {
  if (top["parts"].empty()) {
    const std::string kind = top["kind"];
    experiment->parts.push_back(
        {"", kind, schema_of(kinds, kind), "", top["settings"], top["sweep"]});
    return;
  }
  for (const char* single : {"kind", "settings", "sweep"})
    if (document.contains(single))
      errors.add(std::string("/") + single +
                 ": not allowed beside \"parts\" (give it inside each part)");
  const Schema schema = part_schema(kinds);
  for (std::size_t i = 0; i < top["parts"].size(); ++i) {
    const std::string pointer = "/parts/" + std::to_string(i);
    ErrorList part_errors;
    validate_object(schema, "", top["parts"][i], pointer, /*check_required=*/true, part_errors);
    for (const auto& m : part_errors.messages()) errors.add(m);
    if (!part_errors.empty()) continue;
    const Json part = with_defaults(schema, top["parts"][i]);
    const std::string kind = part["kind"];
    experiment->parts.push_back(
        {part["name"], kind, schema_of(kinds, kind), pointer, part["settings"], part["sweep"]});
  }
}

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

// Counted before anything is expanded.
void check_trial_count(const Experiment& experiment, std::uint64_t max_trials, ErrorList& errors) {
  const std::uint64_t total = planned_trial_count(experiment);
  if (total > max_trials)
    errors.add("/max_trials: the sweep expands to " +
               (total == kSaturated ? std::string("more than 1.8e19") : std::to_string(total)) +
               " trials (sweep values multiplied, times repetitions), more than max_trials = " +
               std::to_string(max_trials) + "; shrink the sweep or raise max_trials");
}

void check_adaptive(const Experiment& experiment, ErrorList& errors) {
  const int most = experiment.adaptive.max_repetitions;
  if (most == 0) return;
  if (most < experiment.repetitions)
    errors.add("/max_repetitions: expected 0 (off) or at least repetitions = " +
               std::to_string(experiment.repetitions) + ", got " + std::to_string(most));
  else if (most > experiment.repetitions && experiment.repetitions < 2)
    errors.add("/repetitions: adaptive repetitions (max_repetitions = " + std::to_string(most) +
               ") need at least 2 planned repetitions to judge a point's spread, got " +
               std::to_string(experiment.repetitions));
}

// k_best settles a point only once it has K repetitions.
void check_estimator(const Experiment& experiment, ErrorList& errors) {
  const int k = experiment.estimator.k;
  const int most = std::max(experiment.repetitions, experiment.adaptive.max_repetitions);
  if (experiment.estimator.kind == EstimatorKind::kKBest && most < k)
    errors.add("/estimator_k: k_best needs at least estimator_k = " + std::to_string(k) +
               " repetitions of a point, but repetitions (and max_repetitions) allow only " +
               std::to_string(most));
}

// It names a folder: portable characters, and short enough for any file system.
void check_name(const std::string& name, ErrorList& errors) {
  constexpr std::size_t kMostCharacters = 100;
  if (!std::regex_match(name, std::regex("[A-Za-z0-9_.-]+")) || name.front() == '.')
    errors.add(
        "/name: expected letters, digits, '.', '_' or '-', not starting with '.' (it "
        "names a folder), got " +
        brief(Json(name)));
  else if (name.size() > kMostCharacters)
    errors.add("/name: at most " + std::to_string(kMostCharacters) +
               " characters (it names a folder), got " + std::to_string(name.size()));
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

// The watchdog cannot tell a call that is merely slower than its resolution from a hang.
void check_timeout(double timeout_s, ErrorList& errors) {
  if (timeout_s > 0 && timeout_s < kWatchdogShortestTimeoutSeconds)
    errors.add("/timeout_s: 0 (off) or at least " + seconds_text(kWatchdogShortestTimeoutSeconds) +
               ", got " + seconds_text(timeout_s) + ": the watchdog looks every " +
               seconds_text(kWatchdogPollSeconds) + " and names a hang up to " +
               seconds_text(kWatchdogGraceSeconds + 2 * kWatchdogPollSeconds) +
               " after timeout_s, so it cannot time shorter waits");
}

}  // namespace

std::uint64_t planned_trial_count(const Experiment& experiment) {
  const auto times = [](std::uint64_t a, std::uint64_t b) {
    return b != 0 && a > kSaturated / b ? kSaturated : a * b;
  };
  std::uint64_t total = 0;
  for (const auto& part : experiment.parts) {
    std::uint64_t points = static_cast<std::uint64_t>(experiment.repetitions);
    for (const auto& axis : part.sweep.items()) points = times(points, axis.value().size());
    total = total > kSaturated - points ? kSaturated : total + points;
  }
  return total;
}

Experiment parse_experiment(const std::string& text, const std::string& source,
                            const std::vector<std::string>& overrides, const KindSchemas& kinds) {
  Json document = parse_json(text, source);
  ErrorList errors;
  if (!document.is_object()) {
    errors.add("/: expected a JSON object, got " + brief(document));
    errors.throw_if_any(source);
  }
  for (const auto& assignment : overrides) apply_override(document, assignment, errors);
  errors.throw_if_any(source);

  const Schema top_schema = top_level_schema(kinds);
  validate_object(top_schema, "", document, "", /*check_required=*/true, errors);
  errors.throw_if_any(source);

  const Json top = with_defaults(top_schema, document);
  Experiment experiment = experiment_table().parse(top);
  experiment.source = source;
  experiment.document = std::move(document);
  read_parts(top, experiment.document, kinds, &experiment, errors);
  experiment.search = read_search(experiment.document, experiment.seed, experiment.repetitions,
                                  experiment.adaptive.max_repetitions, &experiment.parts, errors);
  check_name(experiment.name, errors);
  check_part_names_distinct(experiment, errors);
  check_timeout(experiment.timeout_s, errors);
  check_adaptive(experiment, errors);
  check_estimator(experiment, errors);
  for (const auto& part : experiment.parts) validate_part(part, errors);
  errors.throw_if_any(source);
  check_trial_count(experiment, experiment.max_trials, errors);
  errors.throw_if_any(source);
  return experiment;
}

}  // namespace harness
