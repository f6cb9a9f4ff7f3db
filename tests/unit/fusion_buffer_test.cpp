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

TEST(FusionBuffer, ExtraSlotsFollowTheGradients) {
  auto a = torch::zeros({2}, torch::requires_grad());
  FusionBuffer fusion({a}, 2);
  fusion.extra_slots()[1].fill_(1.25);
  EXPECT_EQ(fusion.extra_slots().numel(), 2);
  EXPECT_FLOAT_EQ(fusion.flat()[3].item<float>(), 1.25f);
}

TEST(FusionBuffer, BoundValuesAreViewsIntoTheBuffer) {
  auto a = torch::full({2, 2}, 3.0f, torch::requires_grad());
  auto b = torch::full({3}, 5.0f, torch::requires_grad());
  FusionBuffer fusion({a, b}, 1);
  fusion.bind_values();
  EXPECT_FLOAT_EQ(fusion.flat()[4].item<float>(), 5.0f);  // the values were kept
  fusion.flat().fill_(7);
  EXPECT_TRUE(torch::equal(a.detach(), torch::full({2, 2}, 7.0f)));
  EXPECT_TRUE(torch::equal(b.detach(), torch::full({3}, 7.0f)));
  EXPECT_TRUE(a.requires_grad());
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
