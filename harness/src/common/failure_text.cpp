#include "common/failure_text.h"

#include <sys/resource.h>

#include <cstdio>
#include <regex>

#include "common/available_memory.h"

namespace harness {
namespace {

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  const auto end = line.find_last_not_of(" \t\r");
  return end == std::string::npos ? "" : line.substr(0, end + 1);
}

// LibTorch's CPU allocator: "... DefaultCPUAllocator: can't allocate memory: you tried to
// allocate 4398046511104 bytes. Error code 12 (Cannot allocate memory)".
std::string allocation_failure(const std::string& line) {
  static const std::regex asked("can't allocate memory: you tried to allocate ([0-9]+) bytes");
  std::smatch match;
  if (!std::regex_search(line, match, asked)) return "";
  std::string text = "out of memory: LibTorch could not allocate " +
                     gigabytes(std::stod(match[1].str()));
  if (const auto available = available_memory_bytes())
    text += "; this host has " + gigabytes(static_cast<double>(*available)) + " available";
  if (const std::string limit = address_space_limit_text(); !limit.empty()) text += "; " + limit;
  return text;
}

}  // namespace

std::string address_space_limit_text() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return "";
  return "the address space is limited to " + gigabytes(static_cast<double>(limit.rlim_cur)) +
         " (ulimit -v): a limit of this environment, not of the experiment";
}

std::string failure_text(const std::string& what) {
  const std::string line = first_line(what);
  const std::string memory = allocation_failure(line);
  return memory.empty() ? line : memory;
}

}  // namespace harness
