// Any bytes as one --set override (split at newlines into several) on a valid experiment.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "common/input_error.h"
#include "fuzz_support.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> overrides;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  try {
    const auto experiment = harness::parse_experiment(
        R"({"name": "fuzz", "settings": {"epochs": 1}, "sweep": {"batch_size": [8, 16]}})",
        "fuzz.json", overrides, harness::fuzz::kind_schemas());
    if (harness::fuzz::trial_count(experiment) <= 1000) harness::expand_trials(experiment);
  } catch (const harness::InputError&) {
  }
  return 0;
}
