// What a timing phase measured on one rank, step by step: a train trial's steps, or a replay's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harness {

// This rank's durations of the timing phase's steps, one entry per step in each vector.
struct StepSamples {
  std::vector<double> total_s;
  std::vector<double> compute_s;       // forward and backward (gradient packing included)
  std::vector<double> exposed_comm_s;  // waiting for communication after backward
  std::vector<double> comm_s;          // the allreduces themselves, overlapped or not
  std::vector<double> optimizer_s;
  std::vector<std::int64_t> arrival_ns;  // steady clock when backward ended
  std::size_t samples_per_step = 0;      // this rank's batch
  double wall_seconds = 0;               // the whole phase on this rank

  std::size_t steps() const { return total_s.size(); }
};

}  // namespace harness
