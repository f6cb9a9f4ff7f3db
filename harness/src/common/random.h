// A small, fully specified random generator (SplitMix64). The standard library's
// distributions differ between implementations; ours give the same data everywhere.
#pragma once

#include <cmath>
#include <cstdint>

namespace harness {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound), unbiased enough for shuffling (Lemire's multiply-shift).
  std::uint64_t below(std::uint64_t bound) {
    __extension__ using Wide = unsigned __int128;  // a GCC/Clang extension, on purpose
    return static_cast<std::uint64_t>((static_cast<Wide>(next()) * bound) >> 64);
  }

  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box-Muller; one value per call for simplicity).
  double normal() {
    double u1 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * uniform());
  }

 private:
  std::uint64_t state_;
};

}  // namespace harness
