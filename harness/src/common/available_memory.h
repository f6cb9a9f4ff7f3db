// How much memory this host can still give (Linux's MemAvailable), to refuse work that would
// otherwise be OOM-killed with nothing recorded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace harness {

// "24.3 GB": memory figures as every message about memory gives them.
std::string gigabytes(double bytes);

// MemAvailable from /proc/meminfo, in bytes; nothing where it cannot be read.
std::optional<std::uint64_t> available_memory_bytes();

// Empty when `needed` bytes fit in what is available (or availability is unknown); else a
// sentence with both figures, e.g. "needs about 24.0 GB; this host has 19.2 GB available".
std::string memory_shortfall(std::uint64_t needed);

}  // namespace harness
