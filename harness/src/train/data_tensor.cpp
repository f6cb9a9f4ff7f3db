#include "train/data_tensor.h"

#include <torch/torch.h>

namespace harness {

at::Tensor as_tensor(const TabularData& data, const c10::Device& device) {
  std::vector<int64_t> shape{static_cast<int64_t>(data.rows())};
  shape.insert(shape.end(), data.sample_shape.begin(), data.sample_shape.end());
  return torch::from_blob(const_cast<float*>(data.values.data()), shape, torch::kFloat32)
      .to(device);
}

}  // namespace harness
