#include "trial/speed_canary.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>

namespace harness {
namespace {

// 64 KB of floats (in every L2 cache) updated kSweeps times: about 20 ms at full speed here.
constexpr std::size_t kElements = 16384;
constexpr int kSweeps = 10000;
constexpr int kCalibrationReadings = 10;

}  // namespace

double canary_seconds() {
  static std::array<float, kElements> values{};
  const auto start = std::chrono::steady_clock::now();
  for (int sweep = 0; sweep < kSweeps; ++sweep)
    for (float& v : values) v = v * 0.999f + 1.0f;
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The result must be observable, or the compiler may drop the loop.
  volatile float sink = values[kElements / 2];
  static_cast<void>(sink);
  return seconds;
}

double canary_slowdown() {
  // The first use reads a few times (~0.2 s, once per process): a reference taken in a spell
  // would let the next trials through unchecked until a faster reading came along.
  static double fastest = [] {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kCalibrationReadings; ++i) best = std::min(best, canary_seconds());
    return best;
  }();
  const double now = canary_seconds();
  fastest = std::min(fastest, now);
  return now / fastest;
}

}  // namespace harness
