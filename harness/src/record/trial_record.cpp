#include "record/trial_record.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "record/record_json.h"

namespace harness {

TrialIdentity trial_identity(const Trial& trial, int world_size) {
  TrialIdentity id;
  id.kind = trial.kind;
  id.part = trial.part;
  id.key = trial.key;
  id.point = trial.point;
  id.index = static_cast<int>(trial.index);
  id.repetition = trial.repetition;
  id.seed = trial.seed;
  id.world_size = world_size;
  id.axes = trial.axes;
  id.settings = trial.settings;
  id.model_files = trial.model_files;
  return id;
}

TrialEnd trial_end(TrialStatus status, const std::string& reason,
                   std::chrono::steady_clock::time_point started) {
  return {status, reason,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
}

Json frame_record(const Trial& trial, TrialStatus status, const std::string& reason,
                  std::chrono::steady_clock::time_point started) {
  return to_json(trial_identity(trial, trial.world_size), trial_end(status, reason, started));
}

int record_version_of(const Json& record) {
  if (record.contains("record_version")) {
    const Json& version = record["record_version"];
    if (!version.is_number_integer()) return -1;
    if (version.is_number_unsigned())  // beyond int: newer than any layout, not wrapped around
      return static_cast<int>(std::min<std::uint64_t>(version.get<std::uint64_t>(), INT_MAX));
    const long long value = version.get<long long>();
    return value < 0 ? -1 : static_cast<int>(std::min<long long>(value, INT_MAX));
  }
  return record.contains("schema_version") ? 1 : 0;
}

}  // namespace harness
