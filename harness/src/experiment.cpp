#include "experiment.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "collective_schema.h"
#include "did_you_mean.h"
#include "input_error.h"
#include "json_path.h"
#include "train_schema.h"

namespace harness {
namespace {

const Schema& top_level_schema() {
  using T = FieldType;
  const double inf = std::numeric_limits<double>::infinity();
  static const Schema schema = {
      {"name", T::kString, nullptr, -inf, inf, false, {},
       "names the results folder results/<name>/ (letters, digits, . _ -)"},
      {"description", T::kString, "", -inf, inf, false, {}, "free text, copied to meta.json"},
      {"kind", T::kString, "train", -inf, inf, false, {"train", "collective"},
       "train: distributed training trials; collective: allreduce benchmark"},
      {"seed", T::kInteger, 0, 0, 9.2e18, false, {},
       "base seed; repetition r of a trial uses seed + r"},
      {"repetitions", T::kInteger, 1, 1, 100000, false, {},
       "how many times each sweep point runs, with different seeds"},
      {"settings", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "the settings every trial starts from (fields per kind below)"},
      {"sweep", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "settings path -> list of values; trials are the cartesian product"},
  };
  return schema;
}

void apply_override(Json& document, const std::string& assignment, ErrorList& errors) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    errors.add("--set " + assignment + ": expected path=value, e.g. settings.batch_size=64");
    return;
  }
  const std::string path = assignment.substr(0, equals);
  if (!set_path(document, path, parse_loose_value(assignment.substr(equals + 1))))
    errors.add("--set " + assignment + ": \"" + path + "\" runs through a value that is not an object");
}

void validate_sweep(const Schema& schema, const Json& sweep, ErrorList& errors) {
  std::vector<std::string> known;
  for (const auto& spec : schema) known.push_back(spec.path);
  for (const auto& axis : sweep.items()) {
    const std::string pointer = "/sweep/" + axis.key();
    if (!schema_has_path(schema, axis.key())) {
      errors.add(pointer + ": unknown settings path \"" + axis.key() + "\"" +
                 did_you_mean(axis.key(), known));
      continue;
    }
    if (!axis.value().is_array() || axis.value().empty()) {
      errors.add(pointer + ": expected a non-empty array of values, got " + axis.value().dump());
      continue;
    }
    for (std::size_t i = 0; i < axis.value().size(); ++i)
      validate_value_at(schema, axis.key(), axis.value()[i], pointer + "/" + std::to_string(i),
                        errors);
  }
}

}  // namespace

const Schema& settings_schema_for(const std::string& kind) {
  if (kind == "train") return train_settings_schema();
  if (kind == "collective") return collective_settings_schema();
  throw InputError("unknown experiment kind \"" + kind + "\"");
}

Experiment parse_experiment(const std::string& text, const std::string& source,
                            const std::vector<std::string>& overrides) {
  Experiment experiment;
  experiment.source = source;
  try {
    experiment.document = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const TextPosition at = position_of(text, e.byte == 0 ? 0 : e.byte - 1);
    std::string what = e.what();
    // nlohmann's text repeats the byte offset; keep only the part after "parse error ... : "
    const auto colon = what.find(": ", what.find("parse error"));
    throw InputError(source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                     ": malformed JSON: " +
                     (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
  ErrorList errors;
  if (!experiment.document.is_object()) {
    errors.add("/: expected a JSON object, got " + experiment.document.dump());
    errors.throw_if_any(source);
  }
  for (const auto& assignment : overrides) apply_override(experiment.document, assignment, errors);
  errors.throw_if_any(source);

  validate_object(top_level_schema(), "", experiment.document, "", /*check_required=*/true,
                  errors);
  errors.throw_if_any(source);

  const Json top = with_defaults(top_level_schema(), experiment.document);
  experiment.name = top["name"].get<std::string>();
  experiment.description = top["description"].get<std::string>();
  experiment.kind = top["kind"].get<std::string>();
  experiment.seed = top["seed"].get<std::uint64_t>();
  experiment.repetitions = top["repetitions"].get<int>();
  experiment.settings = top["settings"];
  experiment.sweep = top["sweep"];

  if (!std::regex_match(experiment.name, std::regex("[A-Za-z0-9_.-]+")) ||
      experiment.name.front() == '.')
    errors.add("/name: expected letters, digits, '.', '_' or '-' (it names a folder), got \"" +
               experiment.name + "\"");
  const Schema& schema = settings_schema_for(experiment.kind);
  validate_object(schema, "", experiment.settings, "/settings", /*check_required=*/false, errors);
  validate_sweep(schema, experiment.sweep, errors);
  errors.throw_if_any(source);
  return experiment;
}

Experiment load_experiment(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream file(path);
  if (!file) throw InputError(path + ": cannot open the experiment file");
  std::stringstream text;
  text << file.rdbuf();
  return parse_experiment(text.str(), path, overrides);
}

}  // namespace harness
