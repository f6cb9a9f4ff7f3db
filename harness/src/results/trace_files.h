// Timelines live beside the records, not in them: a trace is thousands of events, and
// trials.jsonl stays one short line per trial.
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// When the record carries a "trace", writes it to <directory>/traces/<key>/trace.json and
// leaves "trace_file" (relative to the folder) in its place. Returns the record.
Json file_trace(Json record, const std::string& directory);

}  // namespace harness
