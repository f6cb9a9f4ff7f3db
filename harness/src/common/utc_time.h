// The current UTC time as text, for folder names and meta.json.
#pragma once

#include <string>

namespace harness {

// strftime of the current UTC time, e.g. "%Y-%m-%dT%H:%M:%SZ".
std::string utc_time(const char* format);

// ISO-8601, e.g. 2026-11-30T16:20:53Z.
inline std::string utc_now() { return utc_time("%Y-%m-%dT%H:%M:%SZ"); }

}  // namespace harness
