#include "run/trial_validation.h"

#include <set>

#include "run/trial_kinds.h"
#include "spec/setting_pointer.h"

namespace harness {
namespace {

// The trial with the largest world size (the first of them).
const Trial* largest_world(const std::vector<Trial>& trials) {
  const Trial* largest = nullptr;
  for (const auto& trial : trials)
    if (!largest || trial.world_size > largest->world_size) largest = &trial;
  return largest;
}

void check_world_size(const Experiment& experiment, const std::vector<Trial>& trials,
                      int launched_ranks, ErrorList& errors) {
  const Trial* largest = largest_world(trials);
  if (!largest || largest->world_size <= launched_ranks) return;
  const std::string need = std::to_string(largest->world_size);
  errors.add(setting_pointer(experiment.parts[largest->part_index], "world_size") +
             ": a trial needs world_size " + need + " but the job has " +
             std::to_string(launched_ranks) + " rank" + (launched_ranks == 1 ? "" : "s") +
             "; launch with mpirun -np " + need);
}

}  // namespace

void validate_trials(const Experiment& experiment, const std::vector<Trial>& trials,
                     const PluginRegistry& plugins, DataCache& data, int launched_ranks) {
  ErrorList errors;
  std::set<std::string> reported, seen;
  for (const auto& trial : trials) {
    ErrorList trial_errors;
    ValidationContext context{experiment.parts[trial.part_index], plugins, data, trial_errors,
                              seen, trial.given, experiment.timeout_s, &experiment.search};
    trial_kind(trial.kind).validate(trial, context);
    for (const auto& message : trial_errors.messages())
      if (reported.insert(message).second) errors.add(message);
  }
  check_world_size(experiment, trials, launched_ranks, errors);
  errors.throw_if_any(experiment.source);
}

}  // namespace harness
