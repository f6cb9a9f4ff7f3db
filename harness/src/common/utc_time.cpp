#include "common/utc_time.h"

#include <ctime>

namespace harness {

std::string utc_time(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[64];
  return std::strftime(text, sizeof text, format, &tm) ? text : "";
}

}  // namespace harness
