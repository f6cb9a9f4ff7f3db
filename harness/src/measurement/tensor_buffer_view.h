// A LibTorch tensor seen as a plugin buffer: what a communicator reduces in place.
#pragma once

#include <ATen/core/Tensor.h>

#include "harness/plugin/torch_element_types.h"

namespace harness {

// The tensor must be contiguous and of dtype's element type; it keeps owning the memory.
plugin::BufferView buffer_view_of(const at::Tensor& tensor, plugin::DType dtype);

}  // namespace harness
