// What an optimizer steps when parameters lie in flat buffers: 1 MiB views of a buffer, each
// with the same view of its gradient as .grad(). One tensor per piece instead of one per
// parameter: an optimizer's per-tensor work (Adam: about ten operations, each dispatched on
// the host) is paid once per MiB, not once per parameter, which is most of a small model's
// optimizer step; and each operation's operands stay in cache between its passes.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace harness {

// LibTorch's optimizers make one pass over a tensor per operation (Adam makes about ten): over
// pieces of 1 MiB their operands stay in cache between passes, as over DDP's per-parameter
// tensors; over one shard of tens of MB every pass goes to memory (an optimizer step four times
// as long as DDP's over twice the elements, measured on the 12.6 M-parameter Transformer).
inline constexpr std::int64_t kOptimizerPieceElements = 1 << 18;

// `values` and `gradient`: flat fp32 tensors of the same length. The pieces are leaves that
// require gradients; the optimizer's in-place updates land in `values`, and whatever is written
// into `gradient` in place is their gradient.
std::vector<at::Tensor> optimizer_pieces(const at::Tensor& values, const at::Tensor& gradient);

}  // namespace harness
