// The verdicts a record states about its own measurement, decided here once for every kind
// (record/record_parts.h, MeasurementVerdict) and written as fields that every reader renders.
#pragma once

#include <string>

#include "record/collective_record.h"
#include "record/replay_record.h"
#include "record/train_record.h"

namespace harness {

// noisy: the step times' cv above noise_cv_threshold, a step that stalled, or a slow spell the
// quiet gate could not keep out of the timing phase.
// oversubscribed: `crowding` says why the group is (mpi/cpu_crowding.h), "" when it is not.
void settle_verdict(TrainRecord& record, const std::string& crowding = "");

// noisy: as a train record's timing phase (the replayed steps').
void settle_verdict(ReplayRecord& record, const std::string& crowding = "");

// noisy: any point noisy (its cv above the threshold, or measured in a slow spell).
void settle_verdict(CollectiveRecord& record, const std::string& crowding = "");

}  // namespace harness
