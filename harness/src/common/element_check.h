// Whether a computed element is wrong: off its expected value by more than the tolerance.
// Written so that NaN is caught: `|NaN - expected| > tolerance` is false, and so would let NaN
// through. A non-finite element is wrong unless the expected one is that same value (an
// infinity of the same sign, or NaN where NaN is expected).
#pragma once

#include <cmath>

namespace harness {

inline bool element_wrong(double actual, double expected, double relative, double absolute = 0) {
  if (actual == expected || (std::isnan(actual) && std::isnan(expected))) return false;
  return !(std::abs(actual - expected) <= std::abs(expected) * relative + absolute);
}

}  // namespace harness
