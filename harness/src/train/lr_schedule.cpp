#include "train/lr_schedule.h"

#include <cmath>

namespace harness {

double scaled_lr(double base_lr, LrRule rule, int world_size) {
  switch (rule) {
    case LrRule::kNone: return base_lr;
    case LrRule::kLinear: return base_lr * world_size;
    case LrRule::kSqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
}

LrSchedule::LrSchedule(double base_lr, LrRule rule, int world_size, std::uint64_t warmup_steps)
    : scaled_(scaled_lr(base_lr, rule, world_size)),
      world_size_(world_size),
      warmup_steps_(warmup_steps) {}

double LrSchedule::at(std::uint64_t step) const {
  if (step >= warmup_steps_) return scaled_;
  const double progress = static_cast<double>(step + 1) / static_cast<double>(warmup_steps_);
  const double start = 1.0 / world_size_;
  return scaled_ * (start + (1.0 - start) * progress);
}

}  // namespace harness
