// Samples as one LibTorch tensor, the form the training loop and evaluation index into.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "data/tabular_data.h"

namespace harness {

// All samples as [rows, sample_shape...] on device (a copy when device is not the CPU).
at::Tensor as_tensor(const TabularData& data, const c10::Device& device);

}  // namespace harness
