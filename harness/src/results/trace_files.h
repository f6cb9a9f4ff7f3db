// Timelines live beside the records, not in them: a trace is thousands of events, and
// trials.jsonl stays one short line per trial.
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// Writes a trial's trace to <directory>/traces/<key>/trace.json and returns that path relative
// to the folder, for the record's trace_file; ResultsWriteError when the folder cannot take it.
std::string file_trace(const Json& trace, const std::string& key, const std::string& directory);

}  // namespace harness
