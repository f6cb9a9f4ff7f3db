#include "trial_validation.h"

#include <algorithm>
#include <set>

#include "communicator_factory.h"
#include "did_you_mean.h"
#include "input_error.h"
#include "json_path.h"
#include "model_factory.h"

namespace harness {
namespace {

// Where a setting's value came from: the sweep axis when it is swept, else settings.
std::string pointer_for(const ExperimentPart& part, const std::string& path) {
  for (const auto& axis : part.sweep.items())
    for (const auto& swept : axis_paths(axis.key()))
      if (path == swept || path.rfind(swept + ".", 0) == 0 || swept.rfind(path + ".", 0) == 0)
        return part.pointer + "/sweep/" + axis.key();
  std::string pointer = part.pointer + "/settings/";
  for (char c : path) pointer += c == '.' ? '/' : c;
  return pointer;
}

const PluginHandle* find_plugin(const ExperimentPart& experiment, const PluginRegistry& plugins,
                                plugin::PluginKind kind, const std::string& field,
                                const std::string& name, ErrorList& errors) {
  if (const PluginHandle* found = plugins.find(kind, name)) return found;
  const auto available = plugins.names(kind);
  std::string list;
  for (const auto& n : available) list += (list.empty() ? "" : ", ") + n;
  std::string message = pointer_for(experiment, field) + ": unknown " +
                        plugin::plugin_kind_name(kind) + " plugin \"" + name + "\"" +
                        did_you_mean(name, available) + " (available: " +
                        (list.empty() ? "none" : list) + "; searched ";
  std::string dirs;
  for (const auto& d : plugins.directories()) dirs += (dirs.empty() ? "" : ":") + d;
  errors.add(message + dirs + ")");
  return nullptr;
}

// The model must take the data's input kind, and accept its parameters (it is built once).
void check_model(const ExperimentPart& part, const PluginHandle& model, const DataSplit& split,
                 const Json& settings, ErrorList& errors) {
  const auto takes = model_capabilities(model).input_kind;
  const auto data_kind = split.sequence ? plugin::InputKind::kSequence : plugin::InputKind::kTabular;
  if (takes != data_kind) {
    errors.add(pointer_for(part, "model") + ": model \"" + model.name + "\" takes " +
               plugin::input_kind_name(takes) + " input but data set kind \"" +
               settings["dataset"]["kind"].get<std::string>() + "\" is " + plugin::input_kind_name(data_kind) +
               (split.sequence ? " (windows); use a sequence model such as lstm or transformer"
                               : "; use a tabular model such as autoencoder, or a series data set"));
    return;
  }
  try {
    create_model(model, model_params_for(settings["model_params"], split));
  } catch (const InputError& e) {
    errors.add(e.what());
  } catch (const std::exception& e) {
    errors.add(pointer_for(part, "model_params") + e.what());
  }
}

}  // namespace

void validate_trials(const Experiment& experiment, const std::vector<Trial>& trials,
                     const PluginRegistry& plugins, DataCache& data, int launched_ranks) {
  ErrorList errors;
  std::set<std::string> reported;
  auto add_once = [&](const std::string& message) {
    if (reported.insert(message).second) errors.add(message);
  };

  std::set<std::string> checked_models;
  int largest_world = 0;
  std::string largest_pointer;
  for (const auto& trial : trials) {
    const Json& s = trial.settings;
    const ExperimentPart& part = experiment.parts[trial.part_index];
    if (s["world_size"].get<int>() > largest_world) largest_pointer = pointer_for(part, "world_size");
    largest_world = std::max(largest_world, s["world_size"].get<int>());
    ErrorList trial_errors;
    const PluginHandle* backend =
        find_plugin(part, plugins, plugin::PluginKind::kCommunicator, "backend",
                    s["backend"].get<std::string>(), trial_errors);
    if (backend) {
      try {
        create_communicator(*backend, s["backend_params"]);
      } catch (const std::exception& e) {
        trial_errors.add(pointer_for(part, "backend_params") + e.what());
      }
    }
    if (trial.kind == "train") {
      const PluginHandle* model =
          find_plugin(part, plugins, plugin::PluginKind::kModel, "model",
                      s["model"].get<std::string>(), trial_errors);
      const DataSplit* split = nullptr;
      try {
        split = &data.get(s["dataset"], s["train_on"].get<std::string>());
      } catch (const InputError& e) {
        trial_errors.add(e.what());
      }
      // Sweeps repeat configurations (repetitions, other axes): build each model once.
      const std::string config = s["model"].dump() + s["model_params"].dump() + s["dataset"].dump() +
                                 s["train_on"].dump();
      if (model && split && checked_models.insert(config).second)
        check_model(part, *model, *split, s, trial_errors);
    }
    for (const auto& message : trial_errors.messages()) add_once(message);
  }
  if (largest_world > launched_ranks)
    errors.add(largest_pointer + ": a trial needs world_size " +
               std::to_string(largest_world) + " but the job has " +
               std::to_string(launched_ranks) + " rank" + (launched_ranks == 1 ? "" : "s") +
               "; launch with mpirun -np " + std::to_string(largest_world));
  errors.throw_if_any(experiment.source);
}

}  // namespace harness
