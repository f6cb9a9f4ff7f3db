#include "train/step_timeline.h"

#include <string>

#include "mpi/mpi_check.h"
#include "mpi/string_gather.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

const char* lane_name(StepTimeline::Lane lane) {
  return lane == StepTimeline::Lane::kCompute ? "compute" : "communication thread";
}

// The trace viewer's names for a rank's process and lanes.
void add_names(int rank, Json* events) {
  events->push_back({{"name", "process_name"},
                     {"ph", "M"},
                     {"pid", rank},
                     {"args", {{"name", "rank " + std::to_string(rank)}}}});
  for (auto lane : {StepTimeline::Lane::kCompute, StepTimeline::Lane::kCommunication})
    events->push_back({{"name", "thread_name"},
                       {"ph", "M"},
                       {"pid", rank},
                       {"tid", static_cast<int>(lane)},
                       {"args", {{"name", lane_name(lane)}}}});
}

}  // namespace

void StepTimeline::start(MPI_Comm comm, Watchdog* watchdog) {
  if (max_steps_ == 0) return;
  int size = 0;
  MPI_Comm_size(comm, &size);
  WatchedOperation watched(watchdog, "start of the timeline", 0, size);
  check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  origin_ = Clock::now();
  started_ = true;
}

void StepTimeline::begin_step(std::uint64_t step) {
  if (!started_) return;
  step_.store(step, std::memory_order_relaxed);
  recording_.store(steps_begun_++ < max_steps_, std::memory_order_relaxed);
}

double StepTimeline::micros(Clock::time_point t) const {
  return std::chrono::duration<double, std::micro>(t - origin_).count();
}

void StepTimeline::span(Lane lane, const char* name, Clock::time_point begin, Clock::time_point end,
                        Json args) {
  if (!recording()) return;
  args["step"] = step_.load(std::memory_order_relaxed);
  Json event = {{"name", name},
                {"ph", "X"},
                {"ts", micros(begin)},
                {"dur", micros(end) - micros(begin)},
                {"tid", static_cast<int>(lane)},
                {"args", std::move(args)}};
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back(std::move(event));
}

void StepTimeline::instant(Lane lane, const char* name, Clock::time_point at, Json args) {
  if (!recording()) return;
  args["step"] = step_.load(std::memory_order_relaxed);
  Json event = {{"name", name},
                {"ph", "i"},
                {"s", "t"},
                {"ts", micros(at)},
                {"tid", static_cast<int>(lane)},
                {"args", std::move(args)}};
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back(std::move(event));
}

Json StepTimeline::gather(MPI_Comm comm, Watchdog* watchdog) const {
  if (max_steps_ == 0) return nullptr;
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  WatchedOperation watched(watchdog, "gathering the timeline", 0, size);
  std::string mine;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    mine = events_.dump();
  }
  const auto parts = gather_strings(mine, 0, comm);
  if (rank != 0) return nullptr;
  Json events = Json::array();
  for (std::size_t r = 0; r < parts.size(); ++r) {
    add_names(static_cast<int>(r), &events);
    for (Json& event : Json::parse(parts[r])) {
      event["pid"] = static_cast<int>(r);
      events.push_back(std::move(event));
    }
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

}  // namespace harness
