// How finely the watchdog (mpi/watchdog.cpp) times a wait: it looks every poll interval, and
// rank 0 collects the other ranks' reports for a grace period before it names the stuck ones.
// A hang is named between timeout_s and timeout_s + grace + two polls after it began; the
// experiment refuses a timeout_s shorter than the shortest it can time.
#pragma once

namespace harness {

constexpr double kWatchdogPollSeconds = 0.1;
constexpr double kWatchdogGraceSeconds = 2.0;
constexpr double kWatchdogShortestTimeoutSeconds = 1.0;

}  // namespace harness
