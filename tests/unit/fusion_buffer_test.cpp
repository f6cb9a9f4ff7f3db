#include <gtest/gtest.h>
#include <torch/torch.h>

#include "train/fusion_buffer.h"

namespace harness {
namespace {

TEST(FusionBuffer, FlattenAndUnflattenGradientsRoundTrip) {
  auto a = torch::randn({3, 4}, torch::requires_grad());
  auto b = torch::randn({5}, torch::requires_grad());
  (a.sum() * 2 + (b * b).sum()).backward();
  FusionBuffer fusion({a, b}, /*extra_slots=*/1);
  EXPECT_EQ(fusion.gradient_elements(), 17u);
  EXPECT_EQ(fusion.view().count, 18u);
  EXPECT_EQ(fusion.view().bytes(), 72u);

  fusion.pack_gradients();
  const auto flat = fusion.flat();
  EXPECT_TRUE(torch::equal(flat.narrow(0, 0, 12), a.grad().reshape({-1})));
  EXPECT_TRUE(torch::equal(flat.narrow(0, 12, 5), b.grad().reshape({-1})));

  // Reduction happens in the buffer; unpack writes it back into each .grad().
  const auto expected_b = b.grad().clone() * 3;
  fusion.flat().mul_(3);
  fusion.unpack_gradients();
  EXPECT_TRUE(torch::allclose(a.grad(), torch::full({3, 4}, 6.0f)));
  EXPECT_TRUE(torch::allclose(b.grad(), expected_b));
}

TEST(FusionBuffer, ExtraSlotCarriesAScalar) {
  auto a = torch::zeros({2}, torch::requires_grad());
  FusionBuffer fusion({a}, 1);
  fusion.set_extra(0, torch::tensor(1.25f));
  EXPECT_DOUBLE_EQ(fusion.extra(0), 1.25);
  EXPECT_FLOAT_EQ(fusion.flat()[2].item<float>(), 1.25f);
}

TEST(FusionBuffer, MissingGradientsPackAsZeros) {
  auto used = torch::ones({2}, torch::requires_grad());
  auto unused = torch::ones({3}, torch::requires_grad());
  (used * 2).sum().backward();
  FusionBuffer fusion({used, unused}, 0);
  fusion.flat().fill_(9);
  fusion.pack_gradients();
  EXPECT_TRUE(torch::equal(fusion.flat().narrow(0, 2, 3), torch::zeros({3})));
  fusion.unpack_gradients();
  ASSERT_TRUE(unused.grad().defined());
  EXPECT_TRUE(torch::equal(unused.grad(), torch::zeros({3})));
}

TEST(FusionBuffer, ValuesRoundTripForBroadcast) {
  auto a = torch::arange(6, torch::kFloat32).reshape({2, 3}).requires_grad_();
  FusionBuffer fusion({a}, 0);
  fusion.pack_values();
  fusion.flat().add_(1);
  fusion.unpack_values();
  EXPECT_TRUE(torch::equal(a.detach(), torch::arange(1, 7, torch::kFloat32).reshape({2, 3})));
}

}  // namespace
}  // namespace harness
