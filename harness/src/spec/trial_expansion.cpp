#include "spec/trial_expansion.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "common/brief.h"
#include <vector>

#include "common/hashing.h"
#include "common/input_error.h"
#include "common/random.h"
#include "spec/json_path.h"
#include "spec/schema.h"

namespace harness {
namespace {

using Axes = std::vector<std::pair<std::string, Json>>;  // axis key -> its values

// An object value merges into the object it replaces, so {"dim": 30} keeps the other fields.
void apply_setting(Json& settings, const std::string& path, const Json& value) {
  Json* existing = const_cast<Json*>(find_path(settings, path));
  if (existing && existing->is_object() && value.is_object())
    deep_merge(*existing, value);
  else
    set_path(settings, path, value);
}

// Sweep point `point` as an odometer over the axes, the last varying fastest: which value of
// each axis it takes.
std::vector<std::size_t> point_digits(const Axes& axes, std::size_t point) {
  std::vector<std::size_t> digits(axes.size());
  for (std::size_t a = axes.size(); a-- > 0;) {
    digits[a] = point % axes[a].second.size();
    point /= axes[a].second.size();
  }
  return digits;
}

// "/parts/1/sweep/batch_size/0, /parts/1/sweep/epochs/2": the values a point takes, by place.
std::string point_origin(const ExperimentPart& part, const Axes& axes,
                         const std::vector<std::size_t>& digits) {
  std::string origin;
  for (std::size_t a = 0; a < axes.size(); ++a)
    origin += (origin.empty() ? "" : ", ") + part.pointer + "/sweep/" + brief(axes[a].first, 40) +
              "/" + std::to_string(digits[a]);
  return origin.empty() ? (part.pointer.empty() ? "/settings" : part.pointer + "/settings")
                        : origin;
}

// The sweep point that takes value digits[a] of each axis a, applied to `settings`; returns
// the swept values for display.
Json apply_point(const Axes& axes, const std::vector<std::size_t>& digits, Json* settings) {
  Json shown = Json::object();
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const Json& value = axes[a].second[digits[a]];
    const auto paths = axis_paths(axes[a].first);
    for (std::size_t p = 0; p < paths.size(); ++p) {
      const Json& part_value = paths.size() == 1 ? value : value[p];
      apply_setting(*settings, paths[p], part_value);
      shown[paths[p]] = part_value;
    }
  }
  return shown;
}

// Each file read once per expansion, however many trials name it.
using FileHashes = std::map<std::string, std::optional<std::string>>;

void hash_file(const std::string& name, const std::string& path, FileHashes* cache, Json* files) {
  auto found = cache->find(path);
  if (found == cache->end()) found = cache->emplace(path, file_content_hash(path)).first;
  if (found->second) (*files)[name] = *found->second;
}

// The files a trial reads, by setting: a model parameter that names a file ("path" or
// "..._path" with a string value), and a replay's job. A file that cannot be read has no hash
// here; validation says why.
Json hash_model_files(const Json& settings, FileHashes* cache) {
  Json files = Json::object();
  if (const Json* job = find_path(settings, "job"); job && job->is_string() && !job->get<std::string>().empty())
    hash_file("job", job->get<std::string>(), cache, &files);
  const Json* params = find_path(settings, "model_params");
  if (!params || !params->is_object()) return files;
  for (const auto& [name, value] : params->items()) {
    const bool names_file =
        name == "path" || (name.size() > 5 && name.compare(name.size() - 5, 5, "_path") == 0);
    if (names_file && value.is_string())
      hash_file(name, value.get_ref<const std::string&>(), cache, &files);
  }
  return files;
}

// Settings that joined a kind after its first records: at these values (their defaults) they
// stay out of the key, so that a trial that does what it did before keeps its key (--resume
// of an older folder, the regression gate against an older build).
struct LaterSetting {
  const char* kind;
  const char* name;
  nlohmann::json default_value;
};
const std::vector<LaterSetting>& later_settings() {
  static const std::vector<LaterSetting> settings = {{"collective", "collective", "allreduce"},
                                                     {"collective", "root", 0},
                                                     {"train", "strategy", "ddp"}};
  return settings;
}

// Keys hash sorted-key JSON so that field order in the file does not matter. Model files
// join only when there are some, so keys of trials without them are those of earlier runs.
nlohmann::json canonical_trial(const Trial& trial) {
  nlohmann::json canonical = {{"kind", trial.kind},
                              {"settings", nlohmann::json::parse(trial.settings.dump())}};
  for (const LaterSetting& later : later_settings()) {
    auto& settings = canonical["settings"];
    if (trial.kind == later.kind && settings.contains(later.name) &&
        settings[later.name] == later.default_value)
      settings.erase(later.name);
  }
  if (!trial.model_files.empty())
    canonical["model_files"] = nlohmann::json::parse(trial.model_files.dump());
  return canonical;
}

std::string trial_key(const Trial& trial) {
  nlohmann::json canonical = canonical_trial(trial);
  canonical["repetition"] = trial.repetition;
  canonical["seed"] = trial.seed;
  return stable_hash(canonical.dump());
}

// The sweep point, whatever the repetition: what aggregates over repetitions group by.
std::string point_key(const Trial& trial) {
  nlohmann::json canonical = canonical_trial(trial);
  canonical["part"] = trial.part;
  return stable_hash(canonical.dump());
}

void expand_part(const Experiment& experiment, std::size_t part_index, FileHashes* file_hashes,
                 std::vector<Trial>* trials) {
  const ExperimentPart& part = experiment.parts[part_index];
  const Json base = with_defaults(*part.schema, part.settings);
  Axes axes;
  std::size_t points = 1;
  for (const auto& axis : part.sweep.items()) {
    axes.emplace_back(axis.key(), axis.value());
    points *= axis.value().size();
  }
  for (std::size_t point = 0; point < points; ++point) {
    const std::vector<std::size_t> digits = point_digits(axes, point);
    Json settings = base;
    const Json shown = apply_point(axes, digits, &settings);
    Trial trial;
    trial.given = part.settings;
    apply_point(axes, digits, &trial.given);
    trial.origin = point_origin(part, axes, digits);
    trial.kind = part.kind;
    trial.part = part.name;
    trial.part_index = part_index;
    trial.settings = settings;
    trial.axes = shown;
    trial.world_size = settings["world_size"].get<int>();
    trial.model_files = hash_model_files(settings, file_hashes);
    trial.point = point_key(trial);
    for (int repetition = 0; repetition < experiment.repetitions; ++repetition) {
      trials->push_back(with_repetition(trial, repetition, experiment.seed));
      trials->back().index = trials->size() - 1;
    }
  }
}

// Identical trials share a key, and --resume would take one's record for the other's.
void check_trials_distinct(const Experiment& experiment, const std::vector<Trial>& trials) {
  std::map<std::string, const Trial*> first_with_key;
  ErrorList errors;
  for (const auto& trial : trials) {
    const auto [it, fresh] = first_with_key.emplace(trial.key, &trial);
    if (fresh || trial.repetition != 0) continue;  // each repetition repeats the clash
    errors.add(trial.origin + ": the same trial as " + it->second->origin +
               " (same kind and settings): a sweep point runs once per repetition, so list "
               "each configuration once and use repetitions to run it again");
  }
  errors.throw_if_any(experiment.source);
}

}  // namespace

std::vector<Trial> expand_trials(const Experiment& experiment) {
  std::vector<Trial> trials;
  FileHashes file_hashes;
  for (std::size_t p = 0; p < experiment.parts.size(); ++p)
    expand_part(experiment, p, &file_hashes, &trials);
  check_trials_distinct(experiment, trials);
  order_trials(experiment.order, experiment.seed, &trials);
  return trials;
}

Trial with_repetition(const Trial& trial, int repetition, std::uint64_t experiment_seed) {
  Trial repeated = trial;
  repeated.repetition = repetition;
  repeated.seed = experiment_seed + static_cast<std::uint64_t>(repetition);
  repeated.key = trial_key(repeated);
  return repeated;
}

Trial with_setting(const Trial& trial, const std::string& path, const Json& value) {
  Trial changed = trial;
  set_path(changed.settings, path, value);
  set_path(changed.given, path, value);
  changed.point = point_key(changed);
  changed.key = trial_key(changed);
  return changed;
}

void order_trials(TrialOrder order, std::uint64_t seed, std::vector<Trial>* trials) {
  if (order == TrialOrder::kInterleaved)  // stable: file order within a repetition
    std::stable_sort(trials->begin(), trials->end(),
                     [](const Trial& a, const Trial& b) { return a.repetition < b.repetition; });
  if (order == TrialOrder::kRandom) {  // Fisher-Yates with the harness's own generator
    SplitMix64 rng(seed ^ 0x6f72646572ULL);
    for (std::size_t i = trials->size(); i > 1; --i)
      std::swap((*trials)[i - 1], (*trials)[rng.below(i)]);
  }
  for (std::size_t i = 0; i < trials->size(); ++i) (*trials)[i].index = i;
}

namespace {

// The dotted setting that names the file a trial's model_files entry `name` hashes: a replay's
// job, or a model parameter.
std::string file_setting(const Json& settings, const std::string& name) {
  return name == "job" && !settings.contains("model_params") ? "job" : "model_params." + name;
}

std::string file_path(const Json& settings, const std::string& name) {
  return find_path(settings, file_setting(settings, name))->get<std::string>();
}

}  // namespace

Json model_file_hashes(const std::vector<Trial>& trials) {
  Json files = Json::object();
  for (const auto& trial : trials)
    for (const auto& [name, hash] : trial.model_files.items())
      files[file_path(trial.settings, name)] = hash;
  return files;
}

std::string changed_model_files(const Trial& trial) {
  FileHashes cache;
  const Json now = hash_model_files(trial.settings, &cache);
  std::string changed;
  for (const auto& [name, planned] : trial.model_files.items()) {
    const std::string current = now.contains(name) ? now[name].get<std::string>() : "unreadable";
    if (current == planned) continue;
    changed += (changed.empty() ? "" : "; ") + file_setting(trial.settings, name) + ": " +
               file_path(trial.settings, name) +
               " changed since the sweep was planned (content hash " + planned.get<std::string>() +
               " then, " + current +
               " now): the trial's key and meta.json name the first content, so the trial does "
               "not run on another; restore the file, or run the new one as its own sweep";
  }
  return changed;
}

}  // namespace harness
