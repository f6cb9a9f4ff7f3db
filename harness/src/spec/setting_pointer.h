// Where a trial's setting came from in the experiment file, as a JSON pointer: the sweep
// axis that sets it when it is swept, else the part's settings. Messages about a setting
// name this pointer, so they are right inside "parts" and for swept values.
#pragma once

#include <string>

#include "spec/experiment.h"

namespace harness {

// path: a dotted settings path, e.g. "dataset.window".
std::string setting_pointer(const ExperimentPart& part, const std::string& path);

}  // namespace harness
