// A trial record read back from its JSON line (trials.jsonl) into its typed parts, by walking
// the same declaration the writer walks (record/record_declaration.h). The record is read in
// the newest layout: record/record_upgrade.h brings older ones there first.
//
// Reading is lenient where a record is merely incomplete: a field that is missing, null or of
// another type reads as unset (or zero). Only the status must be one this harness knows.
#pragma once

#include "common/json.h"
#include "record/collective_record.h"
#include "record/replay_record.h"
#include "record/train_record.h"

namespace harness {

// InputError when the status is missing or unknown.
TrainRecord read_train_record(const Json& record);
CollectiveRecord read_collective_record(const Json& record);
ReplayRecord read_replay_record(const Json& record);

CollectivePoint read_collective_point(const Json& point);

}  // namespace harness
