// Where a training step's time goes, summed over the timed steps of one rank.
#pragma once

namespace harness {

struct PhaseTimes {
  double compute_s = 0;    // forward, loss, backward, packing the gradients
  double allreduce_s = 0;  // the communicator's allreduce until its result is ready
  double optimizer_s = 0;  // unpacking, learning-rate update, optimizer step

  double total_s() const { return compute_s + allreduce_s + optimizer_s; }
};

}  // namespace harness
