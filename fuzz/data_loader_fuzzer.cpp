// Any bytes as a data file for one loader, chosen at build time: CSV (HARNESS_FUZZ_CSV), FANN
// (HARNESS_FUZZ_FANN) or LWSNDR (HARNESS_FUZZ_LWSNDR). Bad files must be InputErrors naming
// file:line; anything else is a bug.
#include <cstdint>

#include "common/input_error.h"
#include "data/loaders.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = harness::fuzz::scratch_file(data, size);
  try {
#if defined(HARNESS_FUZZ_CSV)
    harness::load_csv(path, "label");
#elif defined(HARNESS_FUZZ_FANN)
    harness::load_fann(path);
#else
    harness::load_lwsndr(path);
#endif
  } catch (const harness::InputError&) {
  }
  return 0;
}
