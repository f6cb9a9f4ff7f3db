// What the spec layer knows of a trial kind: its name, one line about it, and the schema of
// its settings. The kinds themselves are listed once, in run/trial_kinds.cpp.
#pragma once

#include <string>
#include <vector>

#include "spec/schema.h"

namespace harness {

struct KindSchema {
  std::string name;
  std::string summary;
  const Schema* settings = nullptr;
};

using KindSchemas = std::vector<KindSchema>;

}  // namespace harness
