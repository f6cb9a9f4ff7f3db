// The common frame of a trial record in trials.jsonl (schema_version 1).
#pragma once

#include <chrono>
#include <string>

#include "json.h"
#include "trial.h"

namespace harness {

inline constexpr int kRecordSchemaVersion = 1;

Json new_trial_record(const std::string& kind, const Trial& trial, int world_size);

// Sets status, reason and wall time; returns the record.
Json finish_record(Json record, const std::string& status, const std::string& reason,
                   std::chrono::steady_clock::time_point started);

}  // namespace harness
