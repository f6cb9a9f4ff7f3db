#include "record/trial_status.h"

namespace harness {
namespace {

constexpr TrialStatus kAllStatuses[] = {TrialStatus::kOk,           TrialStatus::kFailed,
                                        TrialStatus::kSkipped,      TrialStatus::kDiverged,
                                        TrialStatus::kInconsistent, TrialStatus::kHung};

}  // namespace

const char* trial_status_name(TrialStatus status) {
  switch (status) {
    case TrialStatus::kOk: return "ok";
    case TrialStatus::kFailed: return "failed";
    case TrialStatus::kSkipped: return "skipped";
    case TrialStatus::kDiverged: return "diverged";
    case TrialStatus::kInconsistent: return "inconsistent";
    case TrialStatus::kHung: return "hung";
  }
  return "unknown";
}

bool is_measured(TrialStatus status) {
  return status == TrialStatus::kOk || status == TrialStatus::kInconsistent;
}

std::optional<TrialStatus> parse_trial_status(const std::string& name) {
  for (TrialStatus status : kAllStatuses)
    if (name == trial_status_name(status)) return status;
  return std::nullopt;
}

std::string trial_status_names() {
  std::string names;
  for (TrialStatus status : kAllStatuses)
    names += (names.empty() ? "" : ", ") + std::string(trial_status_name(status));
  return names;
}

}  // namespace harness
