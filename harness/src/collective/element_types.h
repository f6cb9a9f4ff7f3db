// The element types a collective benchmark runs, as LibTorch types, with the relative error
// a correct result may show in each.
#pragma once

#include <c10/core/ScalarType.h>

#include "harness/plugin/types.h"

namespace harness {

struct ElementType {
  plugin::DType dtype;
  c10::ScalarType scalar;
  double tolerance;  // relative, for the result check
};

ElementType element_type(plugin::DType dtype);

}  // namespace harness
