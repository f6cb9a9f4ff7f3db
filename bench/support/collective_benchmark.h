// Google Benchmark under mpirun. Google Benchmark decides how many iterations to run from the
// time it measures, which differs between processes; a collective needs every rank to make
// the same calls. So only rank 0 runs the library: before each run of a collective benchmark
// it broadcasts (benchmark, arguments, iteration count) and the other ranks, waiting in
// follow_leader(), execute the same body for exactly that many iterations. Rank 0 reports;
// the others are silent. A throw on any rank aborts the whole job (no rank waits forever).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>

namespace harness::bench {

// What a collective benchmark's body sees on every rank.
class CollectiveState {
 public:
  CollectiveState(benchmark::State* leader_state, std::int64_t iterations, std::int64_t arg);

  std::int64_t arg() const { return arg_; }
  bool leader() const { return leader_state_ != nullptr; }

  // Runs `call` the agreed number of times; on rank 0 inside Google Benchmark's timed loop.
  template <class Call>
  void loop(Call&& call) {
    if (leader_state_) {
      for (auto _ : *leader_state_) call();
    } else {
      for (std::int64_t i = 0; i < iterations_; ++i) call();
    }
  }

  // Rank 0 only (no-ops elsewhere): counters and bytes for the report, or a skip. A
  // per-second counter's value is per iteration (divided by the time per iteration).
  void set_bytes_processed(std::int64_t bytes_per_iteration);
  void set_counter(const std::string& name, double value, bool per_second = false);
  void skip(const std::string& reason);

 private:
  benchmark::State* leader_state_;
  std::int64_t iterations_;
  std::int64_t arg_;
};

using CollectiveBody = std::function<void(CollectiveState&)>;

// Registers a benchmark run by every rank, the same on every rank (Google Benchmark's handle,
// for settings; the benchmark takes exactly one argument: ->Arg or ->Range).
benchmark::internal::Benchmark* register_collective(const std::string& name, CollectiveBody body);

// Rank 0: RunSpecifiedBenchmarks with `display`, then releases the followers. Other ranks:
// follow rank 0 until released. Call between MPI_Init and MPI_Finalize on every rank.
void run_collective_benchmarks(benchmark::BenchmarkReporter* display);

}  // namespace harness::bench
