// The LibTorch version harness was built against, for meta.json (without LibTorch's headers).
#pragma once

#include <string>

namespace harness {

std::string libtorch_version();

}  // namespace harness
