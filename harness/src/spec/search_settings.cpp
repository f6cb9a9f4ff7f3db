#include "spec/search_settings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "common/brief.h"
#include "common/hashing.h"
#include "common/random.h"
#include "spec/enum_choice.h"
#include "spec/experiment.h"
#include "spec/json_path.h"
#include "spec/settings_table.h"

namespace harness {
namespace {

const EnumChoice<SearchMethod> kMethods[] = {
    {"successive_halving", SearchMethod::kSuccessiveHalving},
    {"hyperband", SearchMethod::kHyperband},
    {"grid", SearchMethod::kGrid}};
const EnumChoice<SearchObjective> kObjectives[] = {
    {"samples_per_s", SearchObjective::kSamplesPerS},
    {"time_to_target", SearchObjective::kTimeToTarget},
    {"auroc", SearchObjective::kAuroc},
    {"busbw", SearchObjective::kBusbw}};

// The kind whose records carry the objective's figure.
const char* kind_measuring(SearchObjective objective) {
  return objective == SearchObjective::kBusbw ? "collective" : "train";
}

const FieldSpec* field_at(const Schema& schema, const std::string& path) {
  for (const auto& spec : schema)
    if (spec.path == path) return &spec;
  return nullptr;
}

double round_to_digits(double value, int digits) {
  if (value == 0) return 0;
  const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::abs(value))));
  return std::round(value * scale) / scale;
}

// The draws with as few significant digits as keep them inside [low, high] and distinct (three
// at least: values a reader can compare, the same on every machine).
std::vector<double> readable(const std::vector<double>& draws, double low, double high) {
  for (int digits = 3; digits <= 17; ++digits) {
    std::vector<double> rounded;
    for (double draw : draws) rounded.push_back(round_to_digits(draw, digits));
    bool fits = true;
    for (std::size_t i = 0; i < rounded.size() && fits; ++i)
      fits = rounded[i] >= low && rounded[i] <= high && (i == 0 || rounded[i] > rounded[i - 1]);
    if (fits) return rounded;
  }
  return draws;
}

// `count` values over [low, high], one uniform draw in each of `count` equal slices
// (stratified, so no region is left out), on a log scale when asked. Integers that round to
// the same value are kept once.
Json sampled_values(double low, double high, int count, bool log_scale, bool integer,
                    SplitMix64& rng) {
  std::vector<double> draws;
  for (int i = 0; i < count; ++i) {
    const double u = (i + rng.uniform()) / count;
    draws.push_back(log_scale ? low * std::pow(high / low, u) : low + (high - low) * u);
  }
  Json values = Json::array();
  if (!integer) {
    for (double value : readable(draws, low, high)) values.push_back(value);
    return values;
  }
  for (double draw : draws) {
    const auto value = static_cast<std::int64_t>(std::round(draw));
    if (values.empty() || values.back().get<std::int64_t>() != value) values.push_back(value);
  }
  return values;
}

// One "sample" entry: {"log_range": [low, high], "count": n} or {"range": [...], ...}.
void add_sampled_axis(const std::string& path, const Json& spec, std::uint64_t seed,
                      std::vector<ExperimentPart>* parts, ErrorList& errors) {
  const std::string pointer = "/search/sample/" + brief(path, 60);
  const std::size_t before = errors.messages().size();
  const bool log_scale = spec.is_object() && spec.contains("log_range");
  const Json range =
      spec.is_object() ? spec.value(log_scale ? "log_range" : "range", Json()) : Json();
  const Json count = spec.is_object() ? spec.value("count", Json()) : Json();
  if (!spec.is_object() || spec.size() != 2 || !range.is_array() || range.size() != 2 ||
      !range[0].is_number() || !range[1].is_number() || !count.is_number_integer()) {
    errors.add(pointer +
               ": expected {\"log_range\": [low, high], \"count\": n} or "
               "{\"range\": [low, high], \"count\": n}, got " +
               brief(spec));
    return;
  }
  const double low = range[0].get<double>(), high = range[1].get<double>();
  const auto n = count.get<std::int64_t>();
  if (!(low < high) || (log_scale && low <= 0))
    errors.add(pointer + ": expected low < high" + std::string(log_scale ? ", both above 0" : "") +
               " (a log range), got " + brief(range));
  if (n < 2 || n > 1000) errors.add(pointer + "/count: expected 2 to 1000, got " + brief(count));
  SplitMix64 rng(seed ^ fnv1a64(path.data(), path.size()));
  for (auto& part : *parts) {
    const FieldSpec* field = field_at(*part.schema, path);
    if (!field || (field->type != FieldType::kNumber && field->type != FieldType::kInteger)) {
      errors.add(pointer + ": \"" + brief(path) + "\" is not a numeric setting of kind \"" +
                 part.kind + "\"");
      continue;
    }
    for (const auto& axis : part.sweep.items())
      for (const auto& swept : axis_paths(axis.key()))
        if (swept == path)
          errors.add(pointer + ": \"" + brief(path) + "\" is also swept by " + part.pointer +
                     "/sweep; sample it or sweep it");
    if (low < field->min || high > field->max)
      errors.add(pointer + ": the range " + brief(range) + " leaves the setting's bounds");
    const double integers = std::floor(high) - std::ceil(low) + 1;
    if (field->type == FieldType::kInteger && static_cast<double>(n) > integers)
      errors.add(pointer + "/count: " + std::to_string(n) + " distinct values asked of an integer "
                 "setting, but the range " + brief(range) + " holds " +
                 std::to_string(static_cast<long long>(std::max(integers, 0.0))) + " integer(s)");
    if (errors.messages().size() == before)
      part.sweep[path] = sampled_values(low, high, static_cast<int>(n), log_scale,
                                        field->type == FieldType::kInteger, rng);
  }
}

void check_parts(const SearchSettings& search, const std::vector<ExperimentPart>& parts,
                 ErrorList& errors) {
  const std::string objective = search_objective_name(search.objective);
  for (const auto& part : parts) {
    if (part.kind != kind_measuring(search.objective)) {
      errors.add("/search/objective: \"" + objective + "\" is measured by trials of kind \"" +
                 kind_measuring(search.objective) + "\", but " +
                 (part.pointer.empty() ? std::string("the experiment") : part.pointer) +
                 " is of kind \"" + part.kind + "\"");
      continue;
    }
    const Json settings = with_defaults(*part.schema, part.settings);
    // A mistyped epochs is the part's own validation's to name, after this.
    const Json& epochs = settings["epochs"];
    if (search.resource() == SearchResource::kEpochs && epochs.is_number_integer()) {
      for (const auto& axis : part.sweep.items())
        for (const auto& swept : axis_paths(axis.key()))
          if (swept == "epochs")
            errors.add(part.pointer + "/sweep/" + axis.key() + ": objective \"" + objective +
                       "\" searches over epochs itself (min_epochs to the settings' epochs); "
                       "do not sweep them");
      if (search.min_epochs > epochs.get<std::int64_t>())
        errors.add("/search/min_epochs: " + std::to_string(search.min_epochs) +
                   " is more than the settings' epochs (" +
                   std::to_string(epochs.get<std::int64_t>()) + ")");
    }
    if (search.objective == SearchObjective::kTimeToTarget && !search.target_auroc &&
        settings["target_loss"].is_null())
      errors.add(
          "/search/objective: \"time_to_target\" needs a target: settings.target_loss "
          "(training loss) or search.target_auroc");
  }
}

}  // namespace

std::string search_method_name(SearchMethod method) { return choice_word(method, kMethods); }
std::string search_objective_name(SearchObjective objective) {
  return choice_word(objective, kObjectives);
}

namespace {

// Each search setting, declared once (the defaults are SearchSettings' initialisers).
const SettingsTable<SearchSettings>& search_table() {
  using S = SearchSettings;
  static const auto table =
      SettingsTable<S>()
          .add_choice("method", &S::method, kMethods,
                      "successive_halving (every configuration starts, 1/eta of each rung goes "
                      "on), hyperband (successive halving brackets over random subsets, from many "
                      "cheap to few full configurations) or grid (every configuration at the full "
                      "resource)")
          .add_choice("objective", &S::objective, kObjectives,
                      "the figure the search optimises: samples_per_s, busbw (collective), auroc, "
                      "or time_to_target (wall time at the measured step rate to reach "
                      "settings.target_loss or search.target_auroc)")
          .required()
          .add("budget_s", &S::budget_s,
               "wall time the search's trials may take; no trial starts once it is spent, and "
               "the best so far is named",
               {0, 1e8, true})
          .add("eta", &S::eta,
               "a rung keeps 1/eta of its configurations (at least those within noise of the "
               "best) and gives them eta times the resource",
               {2, 100})
          .add("min_repetitions", &S::min_repetitions,
               "samples_per_s, busbw: repetitions per configuration at the first rung; auroc, "
               "time_to_target: at every rung",
               {1, 1000})
          .add("max_repetitions", &S::max_repetitions,
               "samples_per_s, busbw: repetitions at the last rung, and of every point under "
               "method grid",
               {1, 100000})
          .add("min_epochs", &S::min_epochs,
               "auroc, time_to_target: epochs at the first rung (the last rung trains the "
               "settings' epochs)",
               {1, 1e7})
          .add("noise_floor", &S::noise_floor,
               "the interval of a figure with a single value: +-this share of it (two "
               "identical runs on a shared machine differ by a few percent)",
               {0, 1})
          .add("settled_width", &S::settled_width,
               "samples_per_s, busbw: a survivor whose interval is within +-this share of its "
               "figure gets no more repetitions",
               {0, 1})
          .add("first_rung_time_share", &S::first_rung_time_share,
               "samples_per_s, busbw: the first rung times each configuration for this share of "
               "its min_time_s, and waits at most this share of its quiet_wait_s for a quiet "
               "machine (a short screening run; a configuration's first trial is most of a "
               "search's cost on a large grid); a figure taken in a slow spell is not dropped "
               "for what the spell took from it; the configurations it keeps are timed for the "
               "whole window from the next rung on, and a figure from the short window is never "
               "pooled with full ones (1: the whole window at every rung)",
               {0.001, 1})
          .add("target_auroc", &S::target_auroc,
               "time_to_target: reach this AUROC (judged at the end of each rung's training) "
               "instead of settings.target_loss",
               {0, 1})
          .add("message_bytes", &S::message_bytes,
               "busbw: the message size whose bus bandwidth is the figure (null: the largest "
               "measured)",
               {1, 1e15})
          .add("sample", &S::sample,
               "numeric settings drawn instead of listed: {\"optimizer.lr\": {\"log_range\": "
               "[1e-4, 1e-1], \"count\": 8}} (or \"range\" for a linear one): one value drawn "
               "with the seed in each of count equal slices of the range, joining the sweep as "
               "an axis");
  return table;
}

}  // namespace

Schema search_schema() { return search_table().schema(); }

SearchSettings read_search(const Json& document, std::uint64_t seed, int repetitions,
                           int max_repetitions, std::vector<ExperimentPart>* parts,
                           ErrorList& errors) {
  SearchSettings search;
  if (!document.contains("search")) return search;
  const Schema schema = search_schema();
  const std::size_t before = errors.messages().size();
  validate_object(schema, "", document["search"], "/search", /*check_required=*/true, errors);
  if (errors.messages().size() != before) return search;
  search = search_table().parse(with_defaults(schema, document["search"]));
  search.on = true;
  if (search.min_repetitions > search.max_repetitions)
    errors.add("/search/min_repetitions: " + std::to_string(search.min_repetitions) +
               " is more than max_repetitions (" + std::to_string(search.max_repetitions) + ")");
  if (repetitions != 1)
    errors.add(
        "/repetitions: a search decides each configuration's repetitions itself "
        "(search.min_repetitions, search.max_repetitions); leave repetitions out");
  if (max_repetitions != 0)
    errors.add(
        "/max_repetitions: adaptive repetitions and a search do not mix: the search "
        "repeats where its intervals are wide");
  if (search.target_auroc && search.objective != SearchObjective::kTimeToTarget)
    errors.add("/search/target_auroc: only for objective \"time_to_target\"");
  if (search.message_bytes && search.objective != SearchObjective::kBusbw)
    errors.add("/search/message_bytes: only for objective \"busbw\"");
  check_parts(search, *parts, errors);
  for (const auto& [path, spec] : search.sample.items())
    add_sampled_axis(path, spec, seed, parts, errors);
  return search;
}

}  // namespace harness
