// A trial's swept values as text, for the console, the dry-run listing and the search's lines.
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// A string's own text; anything else as JSON.
std::string json_text(const Json& value);

// "world_size=2 batch_size=32" from a trial's swept values; "(no sweep)" for none.
std::string describe_axes(const Json& axes);

// The same, shorter, for a trial's one console line: the backend as the report names it
// ("backend=gloo:ring receive=auto") and objects without JSON's quotes.
std::string trial_label(const Json& axes);

}  // namespace harness
