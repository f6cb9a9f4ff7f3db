// When a measurement is not a plain one: defined here once for every kind of record.
#include "record/collective_record.h"
#include "record/train_record.h"

namespace harness {

bool StepTimingRecord::noisy() const {
  const bool stalled = slow_steps && (slow_steps->timing > 0 || slow_steps->training > 0);
  return (step_time_ms && step_time_ms->cv > noise_cv_threshold) || stalled;
}

bool TrainRecord::noisy() const {
  const bool slow_spell = machine_speed && !machine_speed->last_quiet;
  return (timing && timing->noisy()) || slow_spell;
}

bool CollectiveRecord::noisy() const {
  if (!points) return false;
  for (const CollectivePoint& point : *points)
    if (point.noisy) return true;
  return false;
}

}  // namespace harness
