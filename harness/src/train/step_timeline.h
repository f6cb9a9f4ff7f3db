// The timeline of a train trial (Horovod's timeline): what each rank's compute lane and
// communication thread did during the first few steps of the timing phase, as Chrome
// trace events (loadable in Perfetto or chrome://tracing). One process per rank, one thread
// per lane; timestamps in microseconds from a barrier all ranks left together.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "common/json.h"

namespace harness {

class Watchdog;

class StepTimeline {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Lane { kCompute = 0, kCommunication = 1 };

  // Records at most max_steps steps; 0 never records.
  explicit StepTimeline(std::size_t max_steps) : max_steps_(max_steps) {}

  // Collective: the common time origin; recording starts with the next begin_step.
  void start(MPI_Comm comm, Watchdog* watchdog);
  // The main thread opens each step; recording stops after max_steps of them.
  void begin_step(std::uint64_t step);
  bool recording() const { return recording_.load(std::memory_order_relaxed); }

  // Thread-safe; no-ops while not recording.
  void span(Lane lane, const char* name, Clock::time_point begin, Clock::time_point end,
            Json args = Json::object());
  void instant(Lane lane, const char* name, Clock::time_point at, Json args = Json::object());

  // Collective over comm: on rank 0 the trace ({"traceEvents": [...]}) of every rank; null
  // elsewhere, and on every rank when the timeline is off (max_steps 0).
  Json gather(MPI_Comm comm, Watchdog* watchdog) const;

 private:
  double micros(Clock::time_point t) const;

  const std::size_t max_steps_;
  std::size_t steps_begun_ = 0;
  bool started_ = false;
  Clock::time_point origin_;
  std::atomic<bool> recording_{false};
  std::atomic<std::uint64_t> step_{0};
  mutable std::mutex mutex_;
  Json events_ = Json::array();
};

}  // namespace harness
