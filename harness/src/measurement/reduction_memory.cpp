#include "measurement/reduction_memory.h"

#include <torch/torch.h>

#include "common/human_units.h"

namespace harness {

at::Tensor ReductionMemory::zeros(std::int64_t count, const at::TensorOptions& options) {
  const auto bytes = static_cast<std::size_t>(count) * options.dtype().itemsize();
  void* memory = communicator_ && options.device().type() == torch::kCPU
                     ? communicator_->provide_memory(bytes)
                     : nullptr;
  Tally& tally = memory ? provided_ : host_;
  ++tally.buffers;
  tally.bytes += bytes;
  if (memory == nullptr) return torch::zeros({count}, options);
  auto communicator = communicator_;
  auto tensor = torch::from_blob(
      memory, {count}, [communicator](void* data) { communicator->release_memory(data); }, options);
  return tensor.zero_();
}

std::string ReductionMemory::describe() const {
  if (provided_.buffers == 0) return "host";
  if (host_.buffers == 0) return "communicator";
  const std::size_t total = provided_.buffers + host_.buffers;
  return "mixed: communicator for " + std::to_string(provided_.buffers) + " of " +
         std::to_string(total) + " buffers (" + human_bytes(provided_.bytes) + "), host for " +
         std::to_string(host_.buffers) + " (" + human_bytes(host_.bytes) +
         ", which the communicator could not provide)";
}

}  // namespace harness
