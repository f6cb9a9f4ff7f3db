// Any bytes as an experiment file: parse, validate against the schemas and expand. Bad input
// must be an InputError (exit 2 in the program); anything else, a crash, a hang or a sanitizer
// report is a bug.
#include <cstdint>
#include <string>

#include "common/input_error.h"
#include "fuzz_support.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto experiment =
        harness::parse_experiment(text, "fuzz.json", {}, harness::fuzz::kind_schemas());
    if (harness::fuzz::trial_count(experiment) <= 1000) harness::expand_trials(experiment);
  } catch (const harness::InputError&) {
  }
  return 0;
}
