#include "train/optimizer_pieces.h"

#include <torch/torch.h>

#include <algorithm>

namespace harness {

std::vector<at::Tensor> optimizer_pieces(const at::Tensor& values, const at::Tensor& gradient) {
  std::vector<at::Tensor> pieces;
  const int64_t elements = values.numel();
  for (int64_t start = 0; start < elements; start += kOptimizerPieceElements) {
    const int64_t length = std::min(kOptimizerPieceElements, elements - start);
    at::Tensor piece = values.narrow(0, start, length).detach().requires_grad_(true);
    piece.mutable_grad() = gradient.narrow(0, start, length);
    pieces.push_back(piece);
  }
  return pieces;
}

}  // namespace harness
