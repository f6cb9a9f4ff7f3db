// Facts fixed when harness was built: its version, where its sources live (default data
// folders, git state for meta.json) and the versions of the optional backends found.
#pragma once

namespace harness {

const char* harness_version();
const char* source_directory();
const char* gloo_version_built();  // "not built" when the gloo plugin was not built
const char* nccl_version_built();

}  // namespace harness
