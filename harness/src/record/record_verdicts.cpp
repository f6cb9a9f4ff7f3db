#include "record/record_verdicts.h"

#include <cstdio>
#include <string>
#include <vector>

namespace harness {
namespace {

std::string joined(const std::vector<std::string>& reasons) {
  std::string text;
  for (const std::string& reason : reasons) text += (text.empty() ? "" : "; ") + reason;
  return text;
}

MeasurementVerdict verdict_of(const std::vector<std::string>& reasons) {
  return {!reasons.empty(), joined(reasons)};
}

std::string figure(const char* format, double value) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string slow_spell(const MachineSpeedRecord& speed) {
  return "a slow spell the quiet gate could not wait out (speed canary " +
         (speed.slowdown ? figure("%.2f", *speed.slowdown) : std::string("-")) + "x its fastest)";
}

void timing_reasons(const StepTimingRecord& timing, std::vector<std::string>* reasons) {
  if (timing.step_time_ms && timing.step_time_ms->cv > timing.noise_cv_threshold)
    reasons->push_back("step times' cv " + figure("%.3g", timing.step_time_ms->cv) +
                       " above noise_cv_threshold " + figure("%g", timing.noise_cv_threshold));
  if (!timing.slow_steps) return;
  const std::size_t slow = timing.slow_steps->timing + timing.slow_steps->training;
  if (slow > 0) reasons->push_back(std::to_string(slow) + " slow step(s)");
}

// A record timed in steps (train, replay): its timing phase and the quiet gate.
template <typename Record>
void settle_timed_verdict(Record& record, const std::string& crowding) {
  std::vector<std::string> reasons;
  if (record.timing) timing_reasons(*record.timing, &reasons);
  if (record.machine_speed && !record.machine_speed->last_quiet)
    reasons.push_back(slow_spell(*record.machine_speed));
  record.verdict = verdict_of(reasons);
  record.verdict.oversubscribed = !crowding.empty();
}

}  // namespace

void settle_verdict(TrainRecord& record, const std::string& crowding) {
  settle_timed_verdict(record, crowding);
}

void settle_verdict(ReplayRecord& record, const std::string& crowding) {
  settle_timed_verdict(record, crowding);
}

void settle_verdict(CollectiveRecord& record, const std::string& crowding) {
  std::string sizes;
  if (record.points)
    for (const CollectivePoint& point : *record.points)
      if (point.noisy) sizes += (sizes.empty() ? "" : ", ") + std::to_string(point.bytes) + " B";
  record.verdict = sizes.empty() ? MeasurementVerdict{}
                                 : verdict_of({"timings vary beyond noise_cv_threshold, or a "
                                               "slow spell, at " + sizes});
  record.verdict.oversubscribed = !crowding.empty();
}

}  // namespace harness
