// Numbers as people read them on the console: three significant digits and a unit that fits
// (402k, 7.43 GB/s, 64 MB, 3m20s), never scientific notation. The report's units follow the
// same rules (scripts/harness_analysis/units.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace harness {

// 402k, 1.20M, 950: a count or rate with a metric prefix.
std::string human_count(double value);
// GB/s given, printed as GB/s, MB/s, kB/s or B/s.
std::string human_bandwidth(double gbps);
// Message sizes in powers of two: 4 B, 16 KB, 64 MB.
std::string human_bytes(std::uint64_t bytes);
// Elapsed time for progress lines: 12.3 s, 3m20s, 1h05m.
std::string human_elapsed(double seconds);
// "a", "a and b", "a, b and c".
std::string human_list(const std::vector<std::string>& words);

}  // namespace harness
