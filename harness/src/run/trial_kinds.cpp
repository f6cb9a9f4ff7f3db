#include "run/trial_kinds.h"

#include <stdexcept>

#include "collective/collective_trial.h"
#include "collective/collective_validation.h"
#include "replay/replay_trial.h"
#include "replay/replay_validation.h"
#include "spec/collective_settings.h"
#include "spec/replay_settings.h"
#include "spec/train_settings.h"
#include "train/train_trial.h"
#include "train/train_validation.h"

namespace harness {

const std::vector<TrialKind>& trial_kinds() {
  static const std::vector<TrialKind> kinds = {
      define_trial_kind("train", "distributed training trials", &train_settings_schema,
                        &parse_train_settings, &validate_train_trial, &run_train_trial),
      define_trial_kind("collective", "allreduce benchmark", &collective_settings_schema,
                        &parse_collective_settings, &validate_collective_trial,
                        &run_collective_trial),
      define_trial_kind("replay", "a captured PyTorch DDP job's step, replayed (scripts/tune)",
                        &replay_settings_schema, &parse_replay_settings, &validate_replay_trial,
                        &run_replay_trial),
  };
  return kinds;
}

const TrialKind& trial_kind(const std::string& name) {
  for (const auto& kind : trial_kinds())
    if (kind.name == name) return kind;
  throw std::invalid_argument("unknown trial kind \"" + name + "\"");
}

KindSchemas trial_kind_schemas() {
  KindSchemas schemas;
  for (const auto& kind : trial_kinds())
    schemas.push_back({kind.name, kind.summary, &kind.schema()});
  return schemas;
}

}  // namespace harness
