// A trial record as the JSON line of trials.jsonl, written by walking its declaration
// (record/record_declaration.h): every key the harness writes is spelled there.
#pragma once

#include "common/json.h"
#include "record/collective_record.h"
#include "record/train_record.h"
#include "record/trial_record.h"

namespace harness {

Json to_json(const TrainRecord& record);
Json to_json(const CollectiveRecord& record);
Json to_json(const ReplayRecord& record);
// A record of the frame alone (any kind).
Json to_json(const TrialIdentity& identity, const TrialEnd& end);
Json to_json(const FrameRecord& record);
// Whichever a trial kind handed over (record/trial_record.h).
Json to_json(const TrialResult& result);

// Parts that other outputs show on their own (the quiet gate's test, the console, points.csv).
Json to_json(const MachineSpeedRecord& speed);
Json to_json(const StepTimesRecord& step_times);
Json to_json(const CollectivePoint& point);

}  // namespace harness
