// A collective-benchmark trial's record: one point per message size (record/collective_point.h).
// record/record_json.h writes it.
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
  std::optional<MachineSpeedRecord> machine_speed;

  // Any point noisy.
  bool noisy() const;
};

}  // namespace harness
