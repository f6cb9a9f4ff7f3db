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

// 32 bytes of T: two SSE registers, one AVX register.
template <class T>
struct Vector32;
template <>
struct Vector32<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct Vector32<double> {
  typedef double type __attribute__((vector_size(32)));
};

// `in` holds `ranks` pointers to T.
template <class T>
void sum_of(T* out, const void* const* inputs, int ranks, std::size_t n) {
  const auto in = [inputs](int r) {
    return static_cast<const T*>(inputs[r]);
  };
  using Vector = typename Vector32<T>::type;
  constexpr std::size_t kBytes = sizeof(Vector);
  constexpr std::size_t kWidth = kBytes / sizeof(T);
  std::size_t i = 0;
  for (; i + kWidth <= n; i += kWidth) {
    Vector sum, next;
    std::memcpy(&sum, in(0) + i, kBytes);  // unaligned loads and stores
    for (int r = 1; r < ranks; ++r) {
      std::memcpy(&next, in(r) + i, kBytes);
      sum += next;
    }
    std::memcpy(out + i, &sum, kBytes);
  }
  for (; i < n; ++i) {
    T sum = in(0)[i];
    for (int r = 1; r < ranks; ++r) sum += in(r)[i];
    out[i] = sum;
  }
}

}  // namespace harness::plugins
