// A kind of trial (train, collective, ...): its name, its settings schema, how its settings
// are parsed into a typed struct, validated against plugins and data, and run. The kinds
// are listed once, in run/trial_kinds.cpp; nothing else names them.
#pragma once

#include <functional>
#include <string>

#include "common/json.h"
#include "record/trial_record.h"
#include "spec/kind_schema.h"
#include "spec/trial.h"
#include "trial/trial_context.h"
#include "trial/validation_context.h"

namespace harness {

struct TrialKind {
  std::string name;
  std::string summary;  // one line, for the field reference and --help
  const Schema& (*schema)();
  std::function<void(const Trial&, ValidationContext&)> validate;
  // Collective over the trial's group; never throws for trial-level problems (they become
  // the record's status). Rank 0's record is complete.
  std::function<TrialResult(const Trial&, const TrialContext&)> run;
};

// A kind from its typed pieces: settings are parsed once per call, and validate and run see
// only the typed struct.
template <class Settings>
TrialKind define_trial_kind(std::string name, std::string summary, const Schema& (*schema)(),
                            Settings (*parse)(const Json&),
                            void (*validate)(const Settings&, ValidationContext&),
                            TrialResult (*run)(const Settings&, const Trial&,
                                               const TrialContext&)) {
  return TrialKind{std::move(name), std::move(summary), schema,
                   [parse, validate](const Trial& trial, ValidationContext& context) {
                     validate(parse(trial.settings), context);
                   },
                   [parse, run](const Trial& trial, const TrialContext& context) {
                     return run(parse(trial.settings), trial, context);
                   }};
}

}  // namespace harness
