#include "collective/element_types.h"

namespace harness {

ElementType element_type(plugin::DType dtype) {
  switch (dtype) {
    case plugin::DType::kFloat64: return {dtype, c10::kDouble, 1e-12};
    case plugin::DType::kFloat16: return {dtype, c10::kHalf, 1e-2};
    case plugin::DType::kBFloat16: return {dtype, c10::kBFloat16, 2e-2};
    case plugin::DType::kFloat32: break;
  }
  return {plugin::DType::kFloat32, c10::kFloat, 1e-6};
}

}  // namespace harness
