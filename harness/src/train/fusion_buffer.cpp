#include "train/fusion_buffer.h"

#include <torch/torch.h>

#include <stdexcept>

#include "measurement/tensor_buffer_view.h"

namespace harness {

FusionBuffer::FusionBuffer(std::vector<at::Tensor> parameters, std::size_t extra_slots,
                           ReductionMemory* memory)
    : parameters_(std::move(parameters)) {
  for (const auto& p : parameters_) {
    if (p.scalar_type() != torch::kFloat32)
      throw std::invalid_argument("fusion buffer: only fp32 parameters are supported");
    gradient_elements_ += static_cast<std::size_t>(p.numel());
  }
  const auto device = parameters_.empty() ? torch::Device(torch::kCPU) : parameters_[0].device();
  const auto count = static_cast<int64_t>(gradient_elements_ + extra_slots);
  const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(device);
  flat_ = memory ? memory->zeros(count, options) : torch::zeros({count}, options);
  int64_t offset = 0;
  for (const auto& p : parameters_) {
    slices_.push_back(flat_.narrow(0, offset, p.numel()).view(p.sizes()));
    offset += p.numel();
  }
}

void FusionBuffer::bind_gradients() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) parameters_[i].mutable_grad() = slices_[i];
}

void FusionBuffer::pack_gradients() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const auto& grad = parameters_[i].grad();
    if (grad.defined())
      slices_[i].copy_(grad);
    else
      slices_[i].zero_();
  }
}

void FusionBuffer::pack_gradient(std::size_t index, const at::Tensor& gradient) {
  torch::NoGradGuard no_grad;
  slices_.at(index).copy_(gradient);
}

void FusionBuffer::unpack_gradients() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    auto& p = parameters_[i];
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    p.mutable_grad().copy_(slices_[i]);
  }
}

void FusionBuffer::pack_values() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) slices_[i].copy_(parameters_[i]);
}

void FusionBuffer::unpack_values() {
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) parameters_[i].copy_(slices_[i]);
}

void FusionBuffer::bind_values() {
  pack_values();
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < parameters_.size(); ++i) parameters_[i].set_(slices_[i]);
}

at::Tensor FusionBuffer::extra_slots() const {
  const auto gradients = static_cast<int64_t>(gradient_elements_);
  return flat_.narrow(0, gradients, flat_.numel() - gradients);
}

plugin::BufferView FusionBuffer::view() { return buffer_view_of(flat_, plugin::DType::kFloat32); }

}  // namespace harness
