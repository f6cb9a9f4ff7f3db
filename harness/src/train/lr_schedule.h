// Learning-rate scaling in the world size N, with Horovod's gradual warm-up.
#pragma once

#include <cstdint>
#include <string>

#include "spec/train_settings.h"

namespace harness {

// lr, lr*N or lr*sqrt(N).
double scaled_lr(double base_lr, LrRule rule, int world_size);

class LrSchedule {
 public:
  // warmup_steps == 0: constant scaled lr. Otherwise step s < warmup_steps ramps linearly from
  // scaled/N towards scaled (Horovod's LearningRateWarmupCallback), reaching it at the end.
  LrSchedule(double base_lr, LrRule rule, int world_size, std::uint64_t warmup_steps);
  double at(std::uint64_t step) const;
  double peak() const { return scaled_; }

 private:
  double scaled_;
  int world_size_;
  std::uint64_t warmup_steps_;
};

}  // namespace harness
