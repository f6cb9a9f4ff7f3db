#include "collective/wrong_elements.h"

#include <torch/torch.h>

namespace harness {

at::Tensor wrong_elements(const at::Tensor& output, const at::Tensor& expected, double relative,
                          double absolute) {
  const auto actual = output.to(torch::kFloat64);
  // A comparison with NaN is false, so "within" is false for NaN: it is wrong unless expected.
  const auto within = (actual - expected).abs() <= expected.abs() * relative + absolute;
  const auto same = actual.eq(expected).logical_or(actual.isnan().logical_and(expected.isnan()));
  return within.logical_or(same).logical_not();
}

}  // namespace harness
