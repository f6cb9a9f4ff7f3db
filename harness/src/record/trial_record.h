// The common frame of a trial record in trials.jsonl: its record_version, who the trial is,
// how it ended and how long it took. Each kind adds its own fields (record/record_reference.h
// lists them all).
#pragma once

#include <chrono>
#include <string>

#include "common/json.h"
#include "record/record_reference.h"
#include "record/trial_status.h"
#include "spec/trial.h"

namespace harness {

// The layout version of a record read back: record_version, or 1 for records that called it
// schema_version, or 0 when it has neither; -1 when record_version is there but no integer.
int record_version_of(const Json& record);

Json new_trial_record(const Trial& trial, int world_size);

// Sets status, reason and wall time; returns the record.
Json finish_record(Json record, TrialStatus status, const std::string& reason,
                   std::chrono::steady_clock::time_point started);

}  // namespace harness
