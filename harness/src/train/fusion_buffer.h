// Tensor fusion (as in Horovod): every gradient is packed into one persistent flat buffer so
// a step makes a single allreduce call, then unpacked back. A few extra slots after the
// gradients carry per-rank scalars (the step's loss) through the same call, or pad the buffer
// to a whole block per rank.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

#include "harness/plugin/types.h"
#include "measurement/reduction_memory.h"

namespace harness {

class FusionBuffer {
 public:
  // memory: where the buffer lies when a communicator reduces it (null: ordinary memory).
  FusionBuffer(std::vector<at::Tensor> parameters, std::size_t extra_slots,
               ReductionMemory* memory = nullptr);

  // Makes each parameter's .grad() a view into the buffer (DDP's gradient_as_bucket_view):
  // backward accumulates straight into it and the reduced buffer is the gradient, so neither
  // pack_gradients nor unpack_gradients is needed, and zero() clears every gradient at once.
  // The optimizer must not zero_grad() them (LibTorch cannot detach a view in place).
  void bind_gradients();
  void zero() { flat_.zero_(); }

  void pack_gradients();  // missing gradients pack as zeros
  // One parameter's gradient (index in the constructor's order), e.g. from an autograd hook.
  void pack_gradient(std::size_t index, const at::Tensor& gradient);
  void unpack_gradients();  // writes the (reduced) buffer back into each .grad()
  void pack_values();       // parameter values, for broadcast and consistency checks
  void unpack_values();
  // Makes each parameter a view into the buffer, holding its current values: an allgather
  // into the buffer then updates the parameters themselves (FSDP's flat parameter).
  void bind_values();

  at::Tensor extra_slots() const;  // the slots after the gradients

  std::size_t gradient_elements() const { return gradient_elements_; }
  std::size_t parameter_count() const { return parameters_.size(); }
  const std::vector<at::Tensor>& parameters() const { return parameters_; }
  const at::Tensor& flat() const { return flat_; }
  plugin::BufferView view();

 private:
  std::vector<at::Tensor> parameters_;
  std::vector<at::Tensor> slices_;  // views of flat_, one per parameter, shaped like it
  std::size_t gradient_elements_ = 0;
  at::Tensor flat_;
};

}  // namespace harness
