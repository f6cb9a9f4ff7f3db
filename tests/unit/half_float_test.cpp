// The plugins' fp16/bf16 conversions against LibTorch's (c10::Half, c10::BFloat16): every
// 16-bit pattern back to float, and rounding of floats around every boundary.
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "harness/plugin/half_float.h"

namespace harness {
namespace {

using plugin::BFloat16;
using plugin::Float16;

bool same_float(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

TEST(HalfFloat, EveryFp16AndBf16PatternWidensLikeLibTorch) {
  for (std::uint32_t bits = 0; bits <= 0xFFFFu; ++bits) {
    const auto b16 = static_cast<std::uint16_t>(bits);
    EXPECT_TRUE(same_float(plugin::to_float(Float16{b16}),
                           static_cast<float>(c10::Half(b16, c10::Half::from_bits()))))
        << "fp16 0x" << std::hex << bits;
    EXPECT_TRUE(same_float(plugin::to_float(BFloat16{b16}),
                           static_cast<float>(c10::BFloat16(b16, c10::BFloat16::from_bits()))))
        << "bf16 0x" << std::hex << bits;
  }
}

// Narrowing must round to nearest, ties to even, with subnormals, overflow to infinity and
// NaN as LibTorch does.
TEST(HalfFloat, FloatsNarrowLikeLibTorch) {
  std::mt19937 random(7);
  std::vector<float> values = {0.0f,      -0.0f, 1.0f,     65504.0f,  65519.99f,
                               65520.0f,  1e-8f, 5.96e-8f, 2.98e-8f,  6.1e-5f,
                               6.097e-5f, 3e38f, INFINITY, -INFINITY, NAN};
  // Every fp16 value, the midpoints between neighbours (ties) and a hair either side.
  for (std::uint32_t bits = 0; bits < 0x7C00u; ++bits) {
    const float low = plugin::to_float(Float16{static_cast<std::uint16_t>(bits)});
    const float high = plugin::to_float(Float16{static_cast<std::uint16_t>(bits + 1)});
    const float middle = low + (high - low) / 2;
    for (float v : {low, middle, std::nextafter(middle, 0.0f), std::nextafter(middle, INFINITY)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  std::uniform_int_distribution<std::uint32_t> any_bits;
  for (int i = 0; i < 200000; ++i) values.push_back(plugin::bits_float(any_bits(random)));
  for (float v : values) {
    const Float16 mine = plugin::to_float16(v);
    const c10::Half theirs(v);
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(plugin::to_float(mine)));
    } else {
      EXPECT_EQ(mine.bits, theirs.x) << "fp16 of " << v;
    }
    const BFloat16 mine_bf = plugin::to_bfloat16(v);
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(plugin::to_float(mine_bf)));
    } else {
      EXPECT_EQ(mine_bf.bits, c10::BFloat16(v).x) << "bf16 of " << v;
    }
  }
}

TEST(HalfFloat, SumsRoundOnceToTheType) {
  Float16 a = plugin::to_float16(2048.0f);
  a += plugin::to_float16(1.0f);  // 2049 is not an fp16: the tie goes to even, 2048
  EXPECT_EQ(plugin::to_float(a), 2048.0f);
  BFloat16 b = plugin::to_bfloat16(1.0f);
  b += plugin::to_bfloat16(1.0f / 256);  // below half a bf16 ulp of 1
  EXPECT_EQ(plugin::to_float(b), 1.0f);
  Float16 values[] = {plugin::to_float16(3.0f), plugin::to_float16(-1.5f)};
  plugin::divide_in_place(values, 2, 3);
  EXPECT_EQ(plugin::to_float(values[0]), 1.0f);
  EXPECT_EQ(plugin::to_float(values[1]), plugin::to_float(plugin::to_float16(-0.5f)));
}

}  // namespace
}  // namespace harness
