#include "train/libtorch_version.h"

#include <torch/version.h>

namespace harness {

std::string libtorch_version() { return TORCH_VERSION; }

}  // namespace harness
