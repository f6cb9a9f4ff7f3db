#include "common/failure_text.h"

#include <sys/resource.h>

#include "common/available_memory.h"

namespace harness {
namespace {

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  const auto end = line.find_last_not_of(" \t\r");
  return end == std::string::npos ? "" : line.substr(0, end + 1);
}

// LibTorch's CPU allocator: "... DefaultCPUAllocator: can't allocate memory: you tried to
// allocate 4398046511104 bytes. Error code 12 (Cannot allocate memory)".
std::string allocation_failure(const std::string& line) {
  const std::string asked = "can't allocate memory: you tried to allocate ";
  const auto at = line.find(asked);
  if (at == std::string::npos) return "";
  const auto digits = at + asked.size();
  const auto end = line.find_first_not_of("0123456789", digits);
  if (end == digits || line.compare(end, 6, " bytes") != 0) return "";
  std::string text = "out of memory: LibTorch could not allocate " +
                     gigabytes(std::stod(line.substr(digits, end - digits)));
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
