#include "train/flat_parameters.h"

#include <torch/torch.h>

#include <utility>

#include "train/optimizer_pieces.h"

namespace harness {

FlatParameters::FlatParameters(const GradientReducer& reducer) {
  torch::NoGradGuard no_grad;
  for (std::size_t b = 0; b < reducer.bucket_count(); ++b) {
    auto values = std::make_unique<FusionBuffer>(reducer.bucket_parameters(b), /*extra_slots=*/0);
    values->bind_values();
    for (at::Tensor& piece : optimizer_pieces(values->flat(), reducer.bucket_gradient(b)))
      pieces_.push_back(std::move(piece));
    values_.push_back(std::move(values));
  }
}

}  // namespace harness
