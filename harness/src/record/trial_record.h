// The common frame of a trial record in trials.jsonl: who the trial is, how it ended and how
// long it took (record/record_parts.h). Each kind adds its own parts (record/train_record.h,
// record/collective_record.h, record/replay_record.h); record/record_reference.h lists every field.
#pragma once

#include <chrono>
#include <string>
#include <variant>

#include "common/json.h"
#include "record/collective_record.h"
#include "record/record_parts.h"
#include "record/replay_record.h"
#include "record/train_record.h"
#include "record/trial_status.h"
#include "spec/trial.h"

namespace harness {

TrialIdentity trial_identity(const Trial& trial, int world_size);

// How a trial that started at `started` ended, now.
TrialEnd trial_end(TrialStatus status, const std::string& reason,
                   std::chrono::steady_clock::time_point started);

// What a trial kind hands the results store, typed (as google/benchmark fills one Run and
// hands it to every reporter): rank 0's is complete, the other ranks' are not recorded.
using TrialResult = std::variant<FrameRecord, TrainRecord, CollectiveRecord, ReplayRecord>;

// The record of a trial that ended before its kind could say anything (a hang, an exception
// that escaped it): the frame alone.
FrameRecord frame_record(const Trial& trial, TrialStatus status, const std::string& reason,
                         std::chrono::steady_clock::time_point started);

}  // namespace harness
