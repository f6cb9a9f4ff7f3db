#include "common/available_memory.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace harness {

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

std::optional<std::uint64_t> available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t kilobytes = 0;
    if (fields >> name >> kilobytes && name == "MemAvailable:") return kilobytes * 1024;
  }
  return std::nullopt;
}

std::string memory_shortfall(std::uint64_t needed) {
  const auto available = available_memory_bytes();
  if (!available || needed <= *available) return {};
  return "needs about " + gigabytes(static_cast<double>(needed)) + "; this host has " +
         gigabytes(static_cast<double>(*available)) + " available";
}

}  // namespace harness
