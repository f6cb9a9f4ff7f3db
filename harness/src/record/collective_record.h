// A collective-benchmark trial's record: one point per message size (record/collective_point.h).
// record/record_declaration.h names its fields.
#pragma once

#include <optional>
#include <vector>

#include "record/collective_point.h"
#include "record/record_parts.h"

namespace harness {

struct CollectiveRecord {
  TrialIdentity identity;
  TrialEnd end;
  std::optional<BackendRecord> backend;
  std::optional<std::vector<CollectivePoint>> points;  // once the sizes are measured
  MeasurementVerdict verdict;  // settle_verdict (record/record_verdicts.h)
  std::optional<MachineSpeedRecord> machine_speed;
  std::optional<MemcpyBoundRecord> memcpy;  // when the largest message is kMemcpyBoundBytes or more
};

}  // namespace harness
