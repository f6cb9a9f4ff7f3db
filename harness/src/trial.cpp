#include "trial.h"

#include <cstdio>

#include "json_path.h"
#include "schema.h"

namespace harness {

std::uint64_t fnv1a64(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t hash = 1469598103934665603ULL;
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string stable_hash(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(fnv1a64(text.data(), text.size())));
  return hex;
}

namespace {

// An object value merges into the object it replaces, so {"dim": 30} keeps the other fields.
void apply_setting(Json& settings, const std::string& path, const Json& value) {
  Json* existing = const_cast<Json*>(find_path(settings, path));
  if (existing && existing->is_object() && value.is_object())
    deep_merge(*existing, value);
  else
    set_path(settings, path, value);
}

void expand_part(const Experiment& experiment, std::size_t part_index, std::vector<Trial>* trials_out) {
  const ExperimentPart& part = experiment.parts[part_index];
  std::vector<Trial>& trials = *trials_out;
  const Json base = with_defaults(settings_schema_for(part.kind), part.settings);
  std::vector<std::pair<std::string, Json>> axes;
  std::size_t points = 1;
  for (const auto& axis : part.sweep.items()) {
    axes.emplace_back(axis.key(), axis.value());
    points *= axis.value().size();
  }

  for (std::size_t point = 0; point < points; ++point) {
    // Odometer over the axes, the last axis varying fastest.
    Json settings = base;
    Json shown = Json::object();
    std::size_t rest = point;
    std::vector<std::size_t> digits(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
      digits[a] = rest % axes[a].second.size();
      rest /= axes[a].second.size();
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const Json& value = axes[a].second[digits[a]];
      const auto paths = axis_paths(axes[a].first);
      for (std::size_t p = 0; p < paths.size(); ++p) {
        const Json& part_value = paths.size() == 1 ? value : value[p];
        apply_setting(settings, paths[p], part_value);
        shown[paths[p]] = part_value;
      }
    }
    for (int repetition = 0; repetition < experiment.repetitions; ++repetition) {
      Trial trial;
      trial.index = trials.size();
      trial.kind = part.kind;
      trial.part = part.name;
      trial.part_index = part_index;
      trial.settings = settings;
      trial.axes = shown;
      trial.repetition = repetition;
      trial.seed = experiment.seed + static_cast<std::uint64_t>(repetition);
      // Keys hash sorted-key JSON so that field order in the file does not matter.
      const nlohmann::json canonical = {{"kind", part.kind},
                                        {"settings", nlohmann::json::parse(settings.dump())},
                                        {"repetition", repetition},
                                        {"seed", trial.seed}};
      trial.key = stable_hash(canonical.dump());
      trials.push_back(std::move(trial));
    }
  }
}

}  // namespace

std::vector<Trial> expand_trials(const Experiment& experiment) {
  std::vector<Trial> trials;
  for (std::size_t p = 0; p < experiment.parts.size(); ++p) expand_part(experiment, p, &trials);
  return trials;
}

}  // namespace harness
