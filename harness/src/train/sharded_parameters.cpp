#include "train/sharded_parameters.h"

#include <torch/torch.h>

#include <utility>

#include "measurement/tensor_buffer_view.h"

namespace harness {

ShardedParameters::ShardedParameters(const GradientReducer& reducer,
                                     plugin::Communicator& communicator, int rank,
                                     ReductionMemory* memory)
    : communicator_(communicator), fault_(reducer.fault()) {
  torch::NoGradGuard no_grad;
  for (std::size_t b = 0; b < reducer.bucket_count(); ++b) {
    const std::vector<at::Tensor> members = reducer.bucket_parameters(b);
    const std::size_t padding =
        reducer.padded_elements(b) - static_cast<std::size_t>(reducer.bucket_gradient(b).numel());
    Bucket bucket;
    bucket.values = std::make_unique<FusionBuffer>(members, padding, memory);
    bucket.values->bind_values();
    const at::Tensor& gradient = reducer.gradient_shard(b);
    const int64_t block = gradient.numel();
    bucket.master = memory ? memory->zeros(block, gradient.options())
                           : torch::zeros({block}, gradient.options());
    bucket.master.copy_(bucket.values->flat().narrow(0, rank * block, block));
    // Their gradients: views of the gradient shard, which every reduce-scatter writes in place.
    for (at::Tensor& piece : optimizer_pieces(bucket.master, gradient))
      pieces_.push_back(std::move(piece));
    buckets_.push_back(std::move(bucket));
  }
}

void ShardedParameters::gather() {
  for (Bucket& bucket : buckets_)
    fault_.record(communicator_.allgather(buffer_view_of(bucket.master, plugin::DType::kFloat32),
                                          bucket.values->view(), {}),
                  "allgather");
  fault_.record(communicator_.synchronize(), "synchronize");
}

std::size_t ShardedParameters::parameter_bytes() const {
  std::size_t total = 0;
  for (const Bucket& bucket : buckets_)
    total += bucket.values->flat().nbytes() + bucket.master.nbytes();
  return total;
}

}  // namespace harness
