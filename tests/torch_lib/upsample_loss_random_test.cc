// torchlib's upsampling, losses, native_layer_norm and random samplers.
// Upsampling and losses against PyTorch 1.13 (F is torch.nn.functional;
// the expression printed by torch at test-writing time is in the comment
// above each); the samplers' draws are ONNX's, so their tests check shapes,
// types, ranges and the draws that are certain.
#include <gtest/gtest.h>

#include "onnxscript/torch_lib/ops.h"
#include "onnxscript/torch_lib/registry.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::dims;
using testing::elements;
using testing::expect_close;
using testing::f32;
using testing::i64;

using Ints = std::vector<int64_t>;

// x = torch.tensor([[1.0, 2], [3, 4]]).reshape(1, 1, 2, 2)
Tensor square() { return f32({1, 2, 3, 4}, {1, 1, 2, 2}); }

TEST(TorchlibUpsample, NearestTakesTheFloorOfTheScaledIndex) {
  // F.interpolate(x, size=(3, 4), mode='nearest')
  const Value y = aten_upsample_nearest2d(square(), Value(i64({3, 4})), std::nullopt, std::nullopt);
  expect_close(y, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4});
  EXPECT_EQ(dims(y), (Ints{1, 1, 3, 4}));
  // F.interpolate(x, scale_factor=2.0, mode='nearest')
  const Value s = aten_upsample_nearest_vec(square(), std::nullopt, std::vector<double>{2.0, 2.0});
  expect_close(s, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  EXPECT_THROW(aten_upsample_nearest_vec(square(), std::nullopt, std::nullopt), TypeError);
}

TEST(TorchlibUpsample, LinearModesFollowAlignCorners) {
  // F.interpolate(x, size=(2, 4), mode='bilinear', align_corners=False)
  expect_close(
      aten_upsample_bilinear2d(square(), Value(i64({2, 4})), false, std::nullopt, std::nullopt),
      {1, 1.25f, 1.75f, 2, 3, 3.25f, 3.75f, 4});
  // ... align_corners=True
  expect_close(
      aten_upsample_bilinear2d(square(), Value(i64({2, 4})), true, std::nullopt, std::nullopt),
      {1, 1.333333f, 1.666667f, 2, 3, 3.333333f, 3.666667f, 4});
  // F.interpolate(torch.tensor([[[0.0, 1, 2]]]), size=5, mode='linear', align_corners=True)
  expect_close(
      aten_upsample_linear1d(f32({0, 1, 2}, {1, 1, 3}), Value(i64({5})), true, std::nullopt),
      {0, 0.5f, 1, 1.5f, 2});
  // F.interpolate(x, size=(3, 3), mode='bicubic', align_corners=False)
  expect_close(
      aten_upsample_bicubic2d(square(), Value(i64({3, 3})), false, std::nullopt, std::nullopt),
      {0.739584f, 1.326389f, 1.913195f, 1.913195f, 2.5f, 3.086806f, 3.086806f, 3.673611f,
       4.260417f});
  // F.interpolate(x, scale_factor=(1.0, 2.0), mode='bicubic', align_corners=False)
  expect_close(
      aten_upsample_bicubic2d_vec(square(), std::nullopt, false, std::vector<double>{1.0, 2.0}),
      {0.894531f, 1.226562f, 1.773438f, 2.105469f, 2.894531f, 3.226562f, 3.773438f, 4.105469f});
  // F.interpolate(torch.arange(8.).reshape(1, 1, 2, 2, 2), size=(2, 2, 3), mode='trilinear',
  //               align_corners=True)
  const Value t =
      aten_upsample_linear(f32({0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 2, 2}), Value(i64({2, 2, 3})),
                           true, std::nullopt, std::nullopt, std::nullopt);
  expect_close(t, {0, 0.5f, 1, 2, 2.5f, 3, 4, 4.5f, 5, 6, 6.5f, 7});
  EXPECT_EQ(dims(t), (Ints{1, 1, 2, 2, 3}));
}

TEST(TorchlibLosses, MseNllCrossEntropy) {
  // F.mse_loss(torch.tensor([1., 2, 3]), torch.tensor([1., 0, 0])) -> 4.333333; sum -> 13
  expect_close(aten_mse_loss(f32({1, 2, 3}), f32({1, 0, 0}), 1), {4.333333f});
  expect_close(aten_mse_loss(f32({1, 2, 3}), f32({1, 0, 0}), 2), {13});
  expect_close(aten_mse_loss(f32({1, 2, 3}), f32({1, 0, 0}), 0), {0, 4, 9});
  EXPECT_THROW(aten_mse_loss(f32({1}), f32({1}), 3), TypeError);
  // lp = torch.log(torch.tensor([[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]]))
  const Value lp = aten_log(f32({0.2f, 0.8f, 0.5f, 0.5f, 0.9f, 0.1f}, {3, 2}));
  // F.nll_loss(lp, torch.tensor([1, 0, 0])) -> 0.34055
  expect_close(aten_nll_loss(lp, i64({1, 0, 0}), std::nullopt, 1, -100), {0.34055f});
  // F.nll_loss(lp, torch.tensor([1, 0, -100]), weight=torch.tensor([1., 3.])) -> 0.340644
  expect_close(aten_nll_loss(lp, i64({1, 0, -100}), Value(f32({1, 3})), 1, -100), {0.340644f});
  // logits = torch.tensor([[1.0, 2, 3], [1, 1, 1]]); F.cross_entropy(logits, [2, 0]) -> 0.753109
  const Tensor logits = f32({1, 2, 3, 1, 1, 1}, {2, 3});
  expect_close(aten_cross_entropy_loss(logits, i64({2, 0}), std::nullopt, 1, -100, 0), {0.753109f});
  expect_close(aten_cross_entropy_loss(logits, i64({2, 0}), std::nullopt, 0, -100, 0),
               {0.407606f, 1.098612f});
  // F.cross_entropy(logits, torch.tensor([[0.0, 0, 1], [0.5, 0.5, 0]])) -> 0.753109
  expect_close(aten_cross_entropy_loss(logits, f32({0, 0, 1, 0.5f, 0.5f, 0}, {2, 3}), std::nullopt,
                                       1, -100, 0),
               {0.753109f});
  // Label smoothing 0.1, by hand: 0.9 * 0.753109 (the NLL mean) plus 0.1 / 3
  // times the mean of -sum(log_softmax) per row, (4.222818 + 3.295837) / 2.
  expect_close(aten_cross_entropy_loss(logits, i64({2, 0}), std::nullopt, 1, -100, 0.1),
               {0.803109f});
  // Probabilities with class weights [1, 2, 3]: rows 3 * 0.407606 and
  // 0.5 * 1.098612 + 0.5 * 2 * 1.098612, averaged over the 2 rows.
  expect_close(aten_cross_entropy_loss(logits, f32({0, 0, 1, 0.5f, 0.5f, 0}, {2, 3}),
                                       Value(f32({1, 2, 3})), 1, -100, 0),
               {1.435368f});
  EXPECT_THROW(aten_cross_entropy_loss(logits, i64({2, 0}), std::nullopt, 1, -100, 1.5), TypeError);
}

TEST(TorchlibNnMore, NativeLayerNormGivesItsStatistics) {
  // torch.native_layer_norm(torch.tensor([[1.0, 3], [2, 6]]), [2], None, None, 1e-5)
  const std::vector<Value> out =
      aten_native_layer_norm(f32({1, 3, 2, 6}, {2, 2}), {2}, std::nullopt, std::nullopt, 1e-5);
  ASSERT_EQ(out.size(), 3u);
  expect_close(out[0], {-0.999995f, 0.999995f, -0.999999f, 0.999999f});
  expect_close(out[1], {2, 4});
  EXPECT_EQ(dims(out[1]), (Ints{2, 1}));
  expect_close(out[2], {0.999995f, 0.499999f});
}

TEST(TorchlibRandom, ShapesTypesAndRanges) {
  const auto none = std::nullopt;
  const Value u = aten_rand(Value(i64({2, 3})), none, none, none, none);
  EXPECT_EQ(dims(u), (Ints{2, 3}));
  for (float v : elements<float>(u)) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
  }
  EXPECT_EQ(dims(aten_randn(Value(i64({4})), none, none, none, none)), (Ints{4}));
  // dtype 7: float64.
  EXPECT_EQ(aten_randn_like(f32({1, 2}), 7, none, none, none, none).tensor().dtype(),
            DataType::kDouble);
  EXPECT_EQ(aten_rand_like(f32({1, 2}, {1, 2}), none, none, none, none, none).tensor().dtype(),
            DataType::kFloat);
  const Value ri = aten_randint_low(3, 6, Value(i64({50})), none, none, none, none);
  for (int64_t v : elements<int64_t>(ri)) {
    EXPECT_GE(v, 3);
    EXPECT_LT(v, 6);
  }
  const Value ril = aten_randint_like(i64({0, 0, 0}), 2, none, none, none, none, none);
  for (int64_t v : elements<int64_t>(ril)) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 2);
  }
  EXPECT_THROW(aten_randint(0, Value(i64({1})), none, none, none, none), TypeError);
  // Probabilities of 0 and 1 draw for certain.
  expect_close(aten_bernoulli(f32({0, 1, 1, 0}), none), {0, 1, 1, 0});
  expect_close(aten_bernoulli_p(f32({5, 5}), 1.0, none), {1, 1});
  expect_close(aten_bernoulli_p(f32({5, 5}), 0.0, none), {0, 0});
  // A standard deviation of 0 draws the mean.
  expect_close(aten_normal_tensor_float(f32({1, 2}), 0.0, none), {1, 2});
  expect_close(aten_normal_float_tensor(3.0, f32({0, 0}), none), {3, 3});
  expect_close(aten_normal_tensor_tensor(f32({1, 2}), f32({0}), none), {1, 2});
  expect_close(aten_normal_float_float(4.0, 0.0, Value(i64({2})), none, none, none, none, none),
               {4, 4});
  // All the probability on one class draws it.
  EXPECT_EQ(elements<int64_t>(aten_multinomial(f32({0, 0, 1}), 3, true, none)), (Ints{2, 2, 2}));
  EXPECT_EQ(dims(aten_multinomial(f32({0.5f, 0.5f, 1, 0}, {2, 2}), 1, false, none)), (Ints{2, 1}));
  EXPECT_THROW(aten_multinomial(f32({0.5f, 0.5f}), 2, false, none), TypeError);
}

}  // namespace
}  // namespace onnxscript::torch_lib
