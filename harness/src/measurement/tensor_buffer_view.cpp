#include "measurement/tensor_buffer_view.h"

#include <stdexcept>

namespace harness {

plugin::BufferView buffer_view_of(const at::Tensor& tensor, plugin::DType dtype) {
  if (tensor.scalar_type() != plugin::scalar_type_of(dtype) || !tensor.is_contiguous())
    throw std::logic_error(std::string("buffer_view_of: the tensor is not a contiguous ") +
                           plugin::dtype_name(dtype) + " buffer");
  plugin::BufferView view;
  view.data = tensor.data_ptr();
  view.count = static_cast<std::size_t>(tensor.numel());
  view.dtype = dtype;
  view.device = tensor.is_cuda() ? plugin::DeviceKind::kCuda : plugin::DeviceKind::kCpu;
  view.device_index = tensor.is_cuda() ? tensor.get_device() : 0;
  return view;
}

}  // namespace harness
