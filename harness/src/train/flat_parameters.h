// The parameter side of DDP when the gradients are views into the buckets (no overlap): each
// bucket's parameters become views into one flat buffer laid out as the bucket, so that the
// optimizer steps the bucket's parameters as a few flat pieces (train/optimizer_pieces.h)
// whose gradients are the reduced buckets themselves, instead of one tensor per parameter. The
// same update, element for element, in fewer host-side operations. (With overlap each
// parameter keeps its own .grad(), which the optimizer then steps one by one.)
#pragma once

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "train/fusion_buffer.h"
#include "train/gradient_reducer.h"

namespace harness {

class FlatParameters {
 public:
  // The reducer must keep the gradients as views into its buckets (zeroes_gradients(), not
  // sharded).
  explicit FlatParameters(const GradientReducer& reducer);

  // What the optimizer steps: each bucket's values in pieces, their .grad() the same pieces of
  // the bucket's averaged gradients.
  const std::vector<at::Tensor>& pieces() const { return pieces_; }

 private:
  std::vector<std::unique_ptr<FusionBuffer>> values_;  // per bucket, its parameters bound as views
  std::vector<at::Tensor> pieces_;
};

}  // namespace harness
