#include "train/buffer_sync.h"

#include <torch/torch.h>

namespace harness {

BufferSync::BufferSync(const std::vector<at::Tensor>& buffers, bool every_step,
                       plugin::Communicator& communicator, BackendFault& fault)
    : every_step_(every_step), communicator_(communicator), fault_(fault) {
  std::vector<at::Tensor> fp32;
  for (const auto& buffer : buffers) {
    ++tensors_;
    elements_ += static_cast<std::size_t>(buffer.numel());
    if (buffer.scalar_type() == torch::kFloat32) fp32.push_back(buffer);
  }
  if (!fp32.empty()) fp32_.emplace(std::move(fp32), /*extra_slots=*/0);
}

void BufferSync::broadcast() {
  if (!fp32_) return;
  fp32_->pack_values();
  fault_.record(communicator_.broadcast(fp32_->view(), 0), "buffer broadcast");
  fault_.record(communicator_.synchronize(), "synchronize");
  fp32_->unpack_values();
}

ModelBuffersRecord BufferSync::describe() const {
  const char* kept =
      !fp32_        ? "nothing to send (no fp32 buffer)"
      : every_step_ ? "rank 0's broadcast before training, before every step and after the last"
                    : "rank 0's broadcast once, before training";
  return {tensors_, elements_, fp32_ ? fp32_->gradient_elements() : 0, kept};
}

}  // namespace harness
