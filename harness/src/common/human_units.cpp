#include "common/human_units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace harness {
namespace {

// Three significant digits, written out in full.
std::string significant(double value) {
  if (value == 0 || !std::isfinite(value)) return std::isfinite(value) ? "0" : "-";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int decimals = std::max(2 - magnitude, 0);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  // 999.7 rounds to 1000: drop the digit the carry added.
  if (std::fabs(std::strtod(text, nullptr)) >= std::pow(10.0, magnitude + 1) && decimals > 0)
    std::snprintf(text, sizeof text, "%.*f", decimals - 1, value);
  return text;
}

struct Scale {
  double factor;
  const char* unit;
};

template <std::size_t N>
std::string scaled(double value, const Scale (&scales)[N], const char* smallest) {
  for (const Scale& s : scales)
    if (std::fabs(value) >= s.factor * 0.9995) return significant(value / s.factor) + s.unit;
  return significant(value) + smallest;
}

}  // namespace

std::string human_count(double value) {
  static const Scale kScales[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  return scaled(value, kScales, "");
}

std::string human_bandwidth(double gbps) {
  static const Scale kScales[] = {{1e9, " GB/s"}, {1e6, " MB/s"}, {1e3, " kB/s"}};
  return scaled(gbps * 1e9, kScales, " B/s");
}

std::string human_bytes(std::uint64_t bytes) {
  static const struct {
    int shift;
    const char* unit;
  } kUnits[] = {{30, " GB"}, {20, " MB"}, {10, " KB"}};
  for (const auto& u : kUnits) {
    const std::uint64_t unit = std::uint64_t{1} << u.shift;
    if (bytes >= unit) {
      if (bytes % unit == 0) return std::to_string(bytes / unit) + u.unit;
      return significant(static_cast<double>(bytes) / static_cast<double>(unit)) + u.unit;
    }
  }
  return std::to_string(bytes) + " B";
}

std::string human_elapsed(double seconds) {
  char text[32];
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const long whole = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ldm%02lds", whole / 60, whole % 60);
  } else {
    const long minutes = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ldh%02ldm", minutes / 60, minutes % 60);
  }
  return text;
}

std::string human_list(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : (i + 1 == words.size() ? " and " : ", ")) + words[i];
  return text;
}

}  // namespace harness
