// The only translation unit that sees the build's version definitions (CMake sets them on
// this file alone, so a version bump recompiles one file).
#include "common/build_info.h"

namespace harness {

const char* harness_version() { return HARNESS_VERSION; }
const char* source_directory() { return HARNESS_SOURCE_DIR; }
const char* gloo_version_built() { return HARNESS_GLOO_VERSION; }
const char* nccl_version_built() { return HARNESS_NCCL_VERSION; }

}  // namespace harness
