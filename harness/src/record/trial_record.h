// The common frame of a trial record in trials.jsonl (schema_version 1): who the trial is,
// how it ended and how long it took. Each kind adds its own fields.
#pragma once

#include <chrono>
#include <string>

#include "common/json.h"
#include "record/trial_status.h"
#include "spec/trial.h"

namespace harness {

inline constexpr int kRecordSchemaVersion = 1;

Json new_trial_record(const Trial& trial, int world_size);

// Sets status, reason and wall time; returns the record.
Json finish_record(Json record, TrialStatus status, const std::string& reason,
                   std::chrono::steady_clock::time_point started);

}  // namespace harness
