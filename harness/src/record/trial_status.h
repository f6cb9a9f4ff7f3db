// How a trial ended. The record's "status" string comes from trial_status_name() alone.
#pragma once

#include <optional>
#include <string>

namespace harness {

enum class TrialStatus {
  kOk,            // ran to the end; its numbers stand
  kFailed,        // an error stopped it (or a collective returned wrong elements)
  kSkipped,       // the backend cannot run it here (no GPU, dtype, group shape)
  kDiverged,      // loss NaN, infinite or above divergence_factor x the first; or scores not finite
  kInconsistent,  // finished, but the replicas' parameters differ between ranks
  kHung,          // a rank did not reach an operation within timeout_s; the job was aborted
};

const char* trial_status_name(TrialStatus status);

// Whether a trial's numbers stand: ok, or finished with replicas drifted apart by rounding
// (rank 0's figures were measured like any other's).
bool is_measured(TrialStatus status);

// The status named `name` in a record, or nothing for an unknown name.
std::optional<TrialStatus> parse_trial_status(const std::string& name);

// "ok, failed, ...": every status name, for messages.
std::string trial_status_names();

}  // namespace harness
