#include "collective_benchmark.h"

#include <mpi.h>

#include <array>
#include <cstdio>
#include <exception>
#include <utility>
#include <vector>

namespace harness::bench {
namespace {

// The message rank 0 broadcasts before each run: which body, how often, with what arguments.
// A negative body index releases the followers.
using Command = std::array<std::int64_t, 3>;  // body, iterations, argument
constexpr std::int64_t kRelease = -1;

std::vector<CollectiveBody>& bodies() {
  static std::vector<CollectiveBody> registered;
  return registered;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void broadcast(Command* command) {
  MPI_Bcast(command->data(), static_cast<int>(command->size()), MPI_INT64_T, 0, MPI_COMM_WORLD);
}

// A body that throws on one rank would leave the others waiting in the next collective.
void run_or_abort(std::size_t body, CollectiveState& state) {
  try {
    bodies().at(body)(state);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: benchmark failed: %s\n", world_rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

void follow_leader() {
  for (;;) {
    Command command{};
    broadcast(&command);
    if (command[0] == kRelease) return;
    CollectiveState state(nullptr, command[1], command[2]);
    run_or_abort(static_cast<std::size_t>(command[0]), state);
  }
}

}  // namespace

CollectiveState::CollectiveState(benchmark::State* leader_state, std::int64_t iterations,
                                 std::int64_t arg)
    : leader_state_(leader_state), iterations_(iterations), arg_(arg) {}

void CollectiveState::set_bytes_processed(std::int64_t bytes_per_iteration) {
  if (leader_state_)
    leader_state_->SetBytesProcessed(bytes_per_iteration * leader_state_->iterations());
}

void CollectiveState::set_counter(const std::string& name, double value, bool per_second) {
  if (!leader_state_) return;
  leader_state_->counters[name] =
      benchmark::Counter(value, per_second ? benchmark::Counter::kIsIterationInvariantRate
                                           : benchmark::Counter::kDefaults);
}

void CollectiveState::skip(const std::string& reason) {
  if (leader_state_) leader_state_->SkipWithError(reason.c_str());
}

benchmark::internal::Benchmark* register_collective(const std::string& name, CollectiveBody body) {
  const auto index = static_cast<std::int64_t>(bodies().size());
  bodies().push_back(std::move(body));
  return benchmark::RegisterBenchmark(name.c_str(), [index](benchmark::State& state) {
    Command command{index, static_cast<std::int64_t>(state.max_iterations), state.range(0)};
    broadcast(&command);
    CollectiveState collective(&state, command[1], command[2]);
    run_or_abort(static_cast<std::size_t>(index), collective);
  });
}

void run_collective_benchmarks(benchmark::BenchmarkReporter* display) {
  if (world_rank() != 0) return follow_leader();
  benchmark::RunSpecifiedBenchmarks(display);
  Command release{kRelease, 0, 0};
  broadcast(&release);
}

}  // namespace harness::bench
