#include "record/trial_record.h"

#include "common/failure_text.h"

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
  return {status, failure_text(reason),  // one line, whatever an exception carried
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
}

FrameRecord frame_record(const Trial& trial, TrialStatus status, const std::string& reason,
                         std::chrono::steady_clock::time_point started) {
  return {trial_identity(trial, trial.world_size), trial_end(status, reason, started)};
}

}  // namespace harness
