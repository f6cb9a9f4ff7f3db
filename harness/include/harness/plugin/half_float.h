// IEEE 754 binary16 (fp16) and bfloat16 for plugins that reduce them on the CPU without a
// library that knows them (MPI has no 16-bit float type): 16-bit storage, arithmetic through
// float, rounding to nearest, ties to even, as hardware and LibTorch do. Sums of two values
// round once, so a reduction in these types loses what a real fp16 reduction loses.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace harness::plugin {

struct Float16 {
  std::uint16_t bits = 0;
};
struct BFloat16 {
  std::uint16_t bits = 0;
};

inline std::uint32_t float_bits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float bits_float(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline float to_float(BFloat16 value) { return bits_float(std::uint32_t{value.bits} << 16); }

inline BFloat16 to_bfloat16(float value) {
  const std::uint32_t bits = float_bits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)  // NaN stays a (quiet) NaN
    return {static_cast<std::uint16_t>((bits >> 16) | 0x0040u)};
  const std::uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);
  return {static_cast<std::uint16_t>(rounded >> 16)};
}

inline float to_float(Float16 value) {
  const std::uint32_t sign = std::uint32_t{value.bits & 0x8000u} << 16;
  const std::uint32_t exponent = (value.bits >> 10) & 0x1Fu;
  const std::uint32_t mantissa = value.bits & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24, exact in float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return bits_float(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  return bits_float(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

inline Float16 to_float16(float value) {
  const std::uint32_t bits = float_bits(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return {static_cast<std::uint16_t>(sign | 0x7E00u)};  // NaN
  if (magnitude >= 0x477FF000u)
    return {static_cast<std::uint16_t>(sign | 0x7C00u)};  // >= 65520: inf
  if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal in units of 2^-24 (1024 is 2^-14)
    const float units = std::nearbyint(bits_float(magnitude) * 16777216.0f);
    return {static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units))};
  }
  const std::uint32_t exponent = (magnitude >> 23) - 127 + 15;
  const std::uint32_t mantissa = magnitude & 0x7FFFFFu;
  std::uint32_t half = (exponent << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry may raise the exponent
  return {static_cast<std::uint16_t>(sign | half)};
}

inline Float16& operator+=(Float16& a, Float16 b) {
  return a = to_float16(to_float(a) + to_float(b));
}
inline BFloat16& operator+=(BFloat16& a, BFloat16 b) {
  return a = to_bfloat16(to_float(a) + to_float(b));
}

// values[i] /= divisor, rounded back to the type.
template <class T>
void divide_in_place(T* values, std::size_t count, int divisor) {
  for (std::size_t i = 0; i < count; ++i) values[i] /= static_cast<T>(divisor);
}
template <>
inline void divide_in_place<Float16>(Float16* values, std::size_t count, int divisor) {
  for (std::size_t i = 0; i < count; ++i)
    values[i] = to_float16(to_float(values[i]) / static_cast<float>(divisor));
}
template <>
inline void divide_in_place<BFloat16>(BFloat16* values, std::size_t count, int divisor) {
  for (std::size_t i = 0; i < count; ++i)
    values[i] = to_bfloat16(to_float(values[i]) / static_cast<float>(divisor));
}

}  // namespace harness::plugin
