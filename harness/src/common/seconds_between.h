// Seconds from one reading of the steady clock to a later one: the unit the step timings record.
#pragma once

#include <chrono>

namespace harness {

inline double seconds_between(std::chrono::steady_clock::time_point a,
                              std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace harness
