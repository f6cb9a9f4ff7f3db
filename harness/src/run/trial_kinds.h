// The table of trial kinds: the one place that names them.
#pragma once

#include <string>
#include <vector>

#include "spec/kind_schema.h"
#include "trial/trial_kind.h"

namespace harness {

// Every kind; the first is the default kind of an experiment file.
const std::vector<TrialKind>& trial_kinds();

// The kind named `name`; throws std::invalid_argument for an unknown one.
const TrialKind& trial_kind(const std::string& name);

// Names, summaries and settings schemas, for the experiment parser.
KindSchemas trial_kind_schemas();

}  // namespace harness
