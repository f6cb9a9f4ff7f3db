// The element types as LibTorch's scalar types, once, for everything that hands torch tensors to
// a communicator: the host's trials and the torch.distributed binding. Rows follow
// kElementTypes (types.h). `tolerance` is the relative error a correct sum may show in the type.
#pragma once

#include <c10/core/ScalarType.h>

#include <iterator>
#include <optional>

#include "harness/plugin/types.h"

namespace harness::plugin {

struct TorchElementType {
  DType dtype;
  c10::ScalarType scalar;
  double tolerance;
};
inline constexpr TorchElementType kTorchElementTypes[] = {{DType::kFloat32, c10::kFloat, 1e-6},
                                                          {DType::kFloat64, c10::kDouble, 1e-12},
                                                          {DType::kFloat16, c10::kHalf, 1e-2},
                                                          {DType::kBFloat16, c10::kBFloat16, 2e-2}};
static_assert(std::size(kTorchElementTypes) == std::size(kElementTypes),
              "kTorchElementTypes: one row per element type");

inline const TorchElementType& torch_element_type(DType dtype) {
  for (const TorchElementType& row : kTorchElementTypes)
    if (row.dtype == dtype) return row;
  return kTorchElementTypes[0];  // unreachable: every DType has a row (asserted above)
}

inline c10::ScalarType scalar_type_of(DType dtype) { return torch_element_type(dtype).scalar; }

// The element type of a torch scalar type, or none where a communicator has no such type.
inline std::optional<DType> dtype_of(c10::ScalarType scalar) {
  for (const TorchElementType& row : kTorchElementTypes)
    if (row.scalar == scalar) return row.dtype;
  return std::nullopt;
}

}  // namespace harness::plugin
