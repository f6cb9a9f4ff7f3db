// The sum at the heart of the shm collectives: out[i] = ((in[0][i] + in[1][i]) + in[2][i]) + ...
// in explicit vectors. Every input's element is loaded before its sum is stored, so `out` may be
// one of the inputs (a rank sums its peers' data into its own buffer with no staging copy), and
// the order of the additions is the same for every rank and every path: every rank gets the
// same bits. Written with GCC's vector extensions rather than left to the auto-vectoriser, which
// at -O2 does not vectorise a loop whose output may alias an input.
#pragma once

#include <cstddef>
#include <cstring>

namespace harness::plugins {

// One register of T at the widest the build targets: a vector wider than the registers is
// split by the compiler through the stack, which costs more than the sum itself.
#if defined(__AVX__)
constexpr std::size_t kVectorBytes = 32;
#else
constexpr std::size_t kVectorBytes = 16;
#endif
template <class T>
struct Vector;
template <>
struct Vector<float> {
  typedef float type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct Vector<double> {
  typedef double type __attribute__((vector_size(kVectorBytes)));
};

// `in` holds `ranks` pointers to T.
template <class T>
void sum_of(T* out, const void* const* inputs, int ranks, std::size_t n) {
  const auto in = [inputs](int r) {
    return static_cast<const T*>(inputs[r]);
  };
  using V = typename Vector<T>::type;
  constexpr std::size_t kWidth = kVectorBytes / sizeof(T);
  std::size_t i = 0;
  // Two registers at a time: two independent chains of additions.
  for (; i + 2 * kWidth <= n; i += 2 * kWidth) {
    V low, high, next;
    std::memcpy(&low, in(0) + i, kVectorBytes);  // unaligned loads and stores
    std::memcpy(&high, in(0) + i + kWidth, kVectorBytes);
    for (int r = 1; r < ranks; ++r) {
      std::memcpy(&next, in(r) + i, kVectorBytes);
      low += next;
      std::memcpy(&next, in(r) + i + kWidth, kVectorBytes);
      high += next;
    }
    std::memcpy(out + i, &low, kVectorBytes);
    std::memcpy(out + i + kWidth, &high, kVectorBytes);
  }
  for (; i < n; ++i) {
    T sum = in(0)[i];
    for (int r = 1; r < ranks; ++r) sum += in(r)[i];
    out[i] = sum;
  }
}

}  // namespace harness::plugins
