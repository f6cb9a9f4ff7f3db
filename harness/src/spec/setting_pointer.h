// Where a trial's setting came from in the experiment file, as a JSON pointer: the sweep
// axis that sets it when it is swept, else the part's settings. Messages about a setting
// name this pointer, so they are right inside "parts" and for swept values.
#pragma once

#include <string>

#include "common/json.h"
#include "spec/experiment.h"

namespace harness {

// path: a dotted settings path, e.g. "dataset.window". With the trial's own settings
// (`given`), a swept setting is named down to the entry of the axis the trial took and the
// path inside it ("/sweep/backend_params/2/inter_params"): a sweep of many values says which
// one is wrong.
std::string setting_pointer(const ExperimentPart& part, const std::string& path,
                            const Json* given = nullptr);

}  // namespace harness
