// A LibTorch tensor seen as a plugin buffer: what a communicator reduces in place.
#pragma once

#include <ATen/core/Tensor.h>

#include "harness/plugin/types.h"

namespace harness {

// The tensor must be contiguous and of dtype's element type; it keeps owning the memory.
plugin::BufferView buffer_view_of(const at::Tensor& tensor, plugin::DType dtype);

// The LibTorch element type of a plugin dtype.
c10::ScalarType scalar_type_of(plugin::DType dtype);

}  // namespace harness
