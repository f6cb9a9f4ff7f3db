#include "train/reduction_memory.h"

#include <torch/torch.h>

namespace harness {

at::Tensor ReductionMemory::zeros(std::int64_t count, const at::TensorOptions& options) {
  if (!communicator_ || options.device().type() != torch::kCPU)
    return torch::zeros({count}, options);
  const auto bytes = static_cast<std::size_t>(count) * options.dtype().itemsize();
  void* memory = communicator_->provide_memory(bytes);
  if (memory == nullptr) return torch::zeros({count}, options);
  provided_ = true;
  auto communicator = communicator_;
  auto tensor = torch::from_blob(
      memory, {count}, [communicator](void* data) { communicator->release_memory(data); }, options);
  return tensor.zero_();
}

}  // namespace harness
