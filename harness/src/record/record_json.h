// The one place a trial record becomes the JSON line of trials.jsonl: every field name the
// harness writes is spelled here (docs/results-reference.md lists them; record/record_reference.h).
#pragma once

#include "common/json.h"
#include "record/collective_record.h"
#include "record/train_record.h"

namespace harness {

Json to_json(const TrainRecord& record);
// A record of the frame alone (any kind).
Json to_json(const TrialIdentity& identity, const TrialEnd& end);
Json to_json(const CollectiveRecord& record);

// Parts that other outputs show on their own (the quiet gate's test, the console).
Json to_json(const MachineSpeedRecord& speed);
Json to_json(const StepTimesRecord& step_times);

}  // namespace harness
