// What a trial kind's validation gets: the part the trial came from (to name settings by
// their place in the file), the plugins and data, and the list of problems to add to.
#pragma once

#include <set>
#include <string>

#include "common/failure_text.h"
#include "common/input_error.h"
#include "spec/experiment.h"
#include "spec/json_path.h"
#include "spec/search_settings.h"
#include "spec/setting_pointer.h"

namespace harness {

class PluginRegistry;
class DataCache;

struct ValidationContext {
  const ExperimentPart& part;
  const PluginRegistry& plugins;
  DataCache& data;
  ErrorList& errors;
  std::set<std::string>& seen;  // configurations already checked in this experiment
  const Json& given;            // the trial's settings as the file gives them, no defaults
  double timeout_s = 0;         // the experiment's: a model method validation runs has as long
  const SearchSettings* search = nullptr;  // the experiment's search (off: no search)

  // Whether the file (or the sweep point) sets dotted `field` itself.
  bool is_given(const std::string& field) const { return find_path(given, field) != nullptr; }

  // A problem with the setting at dotted `field`, named by its pointer in the file (a swept
  // one down to the entry this trial took).
  void add(const std::string& field, const std::string& message) {
    errors.add(setting_pointer(part, field, &given) + ": " + message);
  }
  void add(const SettingError& error) { add(error.field(), error.what()); }
  // A plugin's message about its parameters, which starts with a pointer inside the
  // parameter object ("/hidden: expected ...").
  // Any other message (LibTorch's, when building the model fails) follows a colon.
  void add_inside(const std::string& field, const std::string& plugin_message) {
    const std::string text = failure_text(plugin_message);
    errors.add(setting_pointer(part, field, &given) + (text.rfind('/', 0) == 0 ? "" : ": ") + text);
  }

  // True the first time `configuration` is seen: sweeps repeat configurations (repetitions,
  // other axes), and building each one once keeps validation fast.
  bool first_time(const std::string& configuration) { return seen.insert(configuration).second; }
};

}  // namespace harness
