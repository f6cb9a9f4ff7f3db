// The tensor form of common/element_check.h: which elements of a collective's output are wrong,
// NaN and infinities included.
#pragma once

#include <ATen/core/Tensor.h>

namespace harness {

// A bool tensor: true where `output` is off `expected` (float64) by more than
// |expected| * relative + absolute, or is non-finite where `expected` is not that same value.
at::Tensor wrong_elements(const at::Tensor& output, const at::Tensor& expected, double relative,
                          double absolute);

}  // namespace harness
