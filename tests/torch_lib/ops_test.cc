// torchlib's functions run eagerly on small tensors, against values worked
// out by hand from PyTorch's documented semantics (the arithmetic is in the
// comments), and traced, where the ONNX they choose depends on what is known
// of their inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "onnxscript/onnxscript.h"
#include "onnxscript/torch_lib/ops.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::dims;
using testing::elements;
using testing::f32;
using testing::i64;

void expect_near(const Value& v, const std::vector<float>& expected, float tolerance = 1e-5f) {
  const std::vector<float> actual = elements<float>(v);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tolerance) << i;
}

TEST(TorchlibArithmetic, AddSubRsubScaleTheSecondOperandByAlpha) {
  const Tensor x = f32({1, 2}), y = f32({10, 20});
  expect_near(aten_add(x, y, Value(int64_t{1})), {11, 22});
  expect_near(aten_add(x, y, Value(0.5)), {6, 12});            // 1 + 5, 2 + 10
  expect_near(aten_sub(x, y, Value(int64_t{2})), {-19, -38});  // 1 - 20, 2 - 40
  expect_near(aten_rsub(x, y, Value(int64_t{3})), {7, 14});    // 10 - 3, 20 - 6
}

TEST(TorchlibArithmetic, DivisionRoundsAsPyTorchDoes) {
  const Tensor a = i64({7, -7, 7, -8}), b = i64({2, 2, -2, 2});
  // True division of integers gives floats: 3.5, -3.5, -3.5, -4.
  expect_near(aten_div(a, b), {3.5f, -3.5f, -3.5f, -4});
  // floor: -7 / 2 = -3.5 -> -4; 7 / -2 -> -4.
  EXPECT_EQ(elements<int64_t>(aten_floor_divide(a, b)), (std::vector<int64_t>{3, -4, -4, -4}));
  EXPECT_EQ(elements<int64_t>(aten_div_mode(a, b, "floor")), (std::vector<int64_t>{3, -4, -4, -4}));
  // trunc rounds toward zero.
  EXPECT_EQ(elements<int64_t>(aten_div_mode(a, b, "trunc")), (std::vector<int64_t>{3, -3, -3, -4}));
  const Tensor fa = f32({7, -7, 7.5f}), fb = f32({2, 2, -2});
  expect_near(aten_div_mode(fa, fb, "trunc"), {3, -3, -3});
  expect_near(aten_div_mode(fa, fb, "floor"), {3, -4, -4});
  expect_near(aten_div_mode(fa, fb, std::nullopt), {3.5f, -3.5f, -3.75f});
  EXPECT_THROW(aten_div_mode(fa, fb, "round"), TypeError);
}

TEST(TorchlibArithmetic, MulOfBooleansIsLogicalAnd) {
  const Tensor a = Tensor::from<bool>({true, true, false}),
               b = Tensor::from<bool>({true, false, false});
  EXPECT_EQ(elements<bool>(aten_mul(a, b)), (std::vector<bool>{true, false, false}));
}

TEST(TorchlibActivations, MatchTheirDefinitions) {
  const Tensor x = f32({-4, -1, 0, 1, 4});
  expect_near(aten_relu(x), {0, 0, 0, 1, 4});
  // gelu(1) = 0.5 (1 + erf(1/sqrt 2)) = 0.841345; gelu(-1) = -0.158655.
  expect_near(aten_gelu(x, "none"), {-4 * 0.5f * (1 + std::erf(-4 / std::sqrt(2.0f))), -0.158655f,
                                     0, 0.841345f, 4 * 0.5f * (1 + std::erf(4 / std::sqrt(2.0f)))});
  // tanh form at 1: 0.5 (1 + tanh(0.7978846 * 1.044715)) = 0.841192.
  expect_near(aten_gelu(f32({1}), "tanh"), {0.841192f});
  EXPECT_THROW(aten_gelu(x, "fast"), TypeError);
  // relu6(x + 3) / 6: 0, 1/3, 1/2, 2/3, 1.
  expect_near(aten_hardsigmoid(x), {0, 1.0f / 3, 0.5f, 2.0f / 3, 1});
  // x * that: 0, -1/3, 0, 2/3, 4.
  expect_near(aten_hardswish(x), {0, -1.0f / 3, 0, 2.0f / 3, 4});
  expect_near(aten_hardtanh(x, Value(int64_t{-1}), Value(int64_t{1})), {-1, -1, 0, 1, 1});
  expect_near(aten_hardtanh(x, Value(0.0), Value(6.0)), {0, 0, 0, 1, 4});
}

TEST(TorchlibActivations, SoftmaxAlongADimension) {
  // Rows [0, ln 3] -> [1/4, 3/4]; columns of [[0, 0], [ln 3, ln 3]] likewise.
  const Tensor x = f32({0, std::log(3.0f), 0, std::log(3.0f)}, {2, 2});
  expect_near(aten_softmax(x, 1, std::nullopt), {0.25f, 0.75f, 0.25f, 0.75f});
  expect_near(aten_softmax(x, 0, std::nullopt), {0.5f, 0.5f, 0.5f, 0.5f});
  // dtype 7 is torch.float64.
  EXPECT_EQ(aten_softmax(x, -1, 7).tensor().dtype(), DataType::kDouble);
  expect_near(aten_softmax(Tensor::scalar<float>(5), 0, std::nullopt), {1});
}

TEST(TorchlibReductions, MeanOverEverythingOrSomeDimensions) {
  const Tensor x = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  const Value all = aten_mean(x, std::nullopt);
  expect_near(all, {3.5f});
  EXPECT_TRUE(dims(all).empty());
  const Value rows = aten_mean_dim(x, std::vector<int64_t>{1}, false, std::nullopt);
  expect_near(rows, {2, 5});
  EXPECT_EQ(dims(rows), (std::vector<int64_t>{2}));
  const Value kept = aten_mean_dim(x, std::vector<int64_t>{-2}, true, std::nullopt);
  expect_near(kept, {2.5f, 3.5f, 4.5f});
  EXPECT_EQ(dims(kept), (std::vector<int64_t>{1, 3}));
  expect_near(aten_mean_dim(x, std::nullopt, false, std::nullopt), {3.5f});
}

TEST(TorchlibLinearAlgebra, LinearIsInputTimesWeightTransposedPlusBias) {
  // x [[1, 2]], w [[1, 0], [0, 1], [1, 1]], b [10, 20, 30] -> [[11, 22, 33]].
  const Tensor x = f32({1, 2}, {1, 2});
  const Tensor w = f32({1, 0, 0, 1, 1, 1}, {3, 2});
  const Tensor b = f32({10, 20, 30});
  expect_near(aten_linear(x, w, Value(b)), {11, 22, 33});
  expect_near(aten_linear(x, w, std::nullopt), {1, 2, 3});
  // Rank 3: the same rows, batched.
  const Value batched = aten_linear(f32({1, 2, 2, 1}, {2, 1, 2}), w, Value(b));
  expect_near(batched, {11, 22, 33, 12, 21, 33});
  EXPECT_EQ(dims(batched), (std::vector<int64_t>{2, 1, 3}));
  // bmm: [[1, 2]] @ [[3], [4]] = 11 per batch.
  expect_near(aten_bmm(f32({1, 2, 1, 2}, {2, 1, 2}), f32({3, 4, 3, 4}, {2, 2, 1})), {11, 11});
}

TEST(TorchlibLinearAlgebra, LinearTracesGemmForRankTwoAndMatMulOtherwise) {
  namespace op = onnxscript::opset18;
  const Function rank2 =
      script("rank2", {"x", "w", "b"},
             [](FLOAT<2, 4> x, FLOAT<3, 4> w, FLOAT<3> b) { return aten_linear(x, w, Value(b)); });
  const std::string text2 = rank2.to_text();
  EXPECT_NE(text2.find("Gemm"), std::string::npos) << text2;
  EXPECT_EQ(text2.find("MatMul"), std::string::npos) << text2;
  const Function rank3 = script(
      "rank3", {"x", "w", "b"},
      [](FLOAT<5, 2, 4> x, FLOAT<3, 4> w, FLOAT<3> b) { return aten_linear(x, w, Value(b)); });
  const std::string text3 = rank3.to_text();
  EXPECT_NE(text3.find("MatMul"), std::string::npos) << text3;
  EXPECT_EQ(text3.find("Gemm"), std::string::npos) << text3;
  EXPECT_EQ(rank3.to_model().opset_imports.find(""), 18);
}

TEST(TorchlibShapes, CatChunkFlattenPermuteView) {
  const Tensor x = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  const Value cat = aten_cat({Value(x), Value(x)}, 0);
  EXPECT_EQ(dims(cat), (std::vector<int64_t>{4, 3}));
  // 5 elements in 2 chunks: ceil(5 / 2) = 3, then 2.
  const std::vector<Value> chunks = aten_chunk(f32({1, 2, 3, 4, 5}), 2, 0);
  ASSERT_EQ(chunks.size(), 2u);
  expect_near(chunks[0], {1, 2, 3});
  expect_near(chunks[1], {4, 5});
  // 6 in 4 chunks: size 2 each, so only 3 chunks.
  EXPECT_EQ(aten_chunk(f32({1, 2, 3, 4, 5, 6}), 4, 0).size(), 3u);
  const Tensor four_d(DataType::kFloat, {2, 3, 4, 5});
  EXPECT_EQ(dims(aten_flatten(four_d, 1, 2)), (std::vector<int64_t>{2, 12, 5}));
  EXPECT_EQ(dims(aten_flatten(four_d, 0, -1)), (std::vector<int64_t>{120}));
  EXPECT_EQ(dims(aten_flatten(four_d, 1, -1)), (std::vector<int64_t>{2, 60}));
  EXPECT_EQ(dims(aten_flatten(four_d, 2, 3)), (std::vector<int64_t>{2, 3, 20}));
  EXPECT_EQ(dims(aten_permute(four_d, {3, 0, -2, 1})), (std::vector<int64_t>{5, 2, 4, 3}));
  const Value viewed = aten_reshape(x, Value(i64({3, -1})));
  EXPECT_EQ(dims(viewed), (std::vector<int64_t>{3, 2}));
  expect_near(aten_transpose(x, 0, 1), {1, 4, 2, 5, 3, 6});
  EXPECT_EQ(dims(aten_expand(f32({1, 2, 3}, {1, 3}), Value(i64({2, -1})), false)),
            (std::vector<int64_t>{2, 3}));
}

TEST(TorchlibShapes, SelectSliceSizeAndInt) {
  const Tensor x = f32({1, 2, 3, 4, 5, 6}, {2, 3});
  const Value row = aten_select(x, 0, Value(int64_t{1}));
  expect_near(row, {4, 5, 6});
  EXPECT_EQ(dims(row), (std::vector<int64_t>{3}));
  expect_near(aten_select(x, 1, Value(int64_t{-1})), {3, 6});
  // Columns 0 and 2 (step 2), end None.
  expect_near(aten_slice(x, 1, Value(int64_t{0}), std::nullopt, Value(int64_t{2})), {1, 3, 4, 6});
  expect_near(aten_slice(x, 0, std::nullopt, Value(int64_t{-1}), Value(int64_t{1})), {1, 2, 3});
  EXPECT_EQ(elements<int64_t>(aten_size_dim(x, 1)), std::vector<int64_t>{3});
  EXPECT_EQ(elements<int64_t>(aten_int(Tensor::scalar<float>(2.0f))), std::vector<int64_t>{2});
}

TEST(TorchlibShapes, EmbeddingAndZeros) {
  const Tensor weight = f32({0, 0, 1, 1, 2, 2}, {3, 2});
  const Value e = aten_embedding(weight, i64({2, 0, 1, 2}, {2, 2}), -1, false, false);
  EXPECT_EQ(dims(e), (std::vector<int64_t>{2, 2, 2}));
  expect_near(e, {2, 2, 0, 0, 1, 1, 2, 2});
  const Value z =
      aten_zeros(Value(i64({2, 3})), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  expect_near(z, {0, 0, 0, 0, 0, 0});
  // dtype 4 is torch.int64.
  EXPECT_EQ(
      elements<int64_t>(aten_zeros(Value(i64({2})), 4, std::nullopt, std::nullopt, std::nullopt)),
      (std::vector<int64_t>{0, 0}));
}

TEST(TorchlibNn, ConvolutionWithPaddingStrideAndBias) {
  // A 1x1x3x3 input 1..9 and a 2x2 kernel of ones, stride 1, padding 0:
  // window sums 1+2+4+5 = 12, 16, 24, 28; plus bias 1.
  const Tensor x = f32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  const Tensor w = f32({1, 1, 1, 1}, {1, 1, 2, 2});
  expect_near(aten_convolution(x, w, Value(f32({1})), {1}, {0}, {1}, false, {0}, 1),
              {13, 17, 25, 29});
  // padding 1, stride 2: windows at (-1,-1), (-1,1), (1,-1), (1,1) -> 1, 2+3, 4+7, 5+6+8+9.
  const Value padded = aten_convolution(x, w, std::nullopt, {2}, {1}, {1}, false, {0}, 1);
  expect_near(padded, {1, 5, 11, 28});
  EXPECT_EQ(dims(padded), (std::vector<int64_t>{1, 1, 2, 2}));
}

TEST(TorchlibNn, BatchNormUsesRunningStatisticsInInference) {
  // Channel 0: mean 1, var 4 -> (x - 1) / 2; channel 1: mean 0, var 1, scale 2, bias 1.
  const Tensor x = f32({1, 3, 5, -1}, {1, 2, 2, 1});
  const Value y = aten_batch_norm(x, Value(f32({1, 2})), Value(f32({0, 1})), Value(f32({1, 0})),
                                  Value(f32({4, 1})), false, 0.1, 0.0, false);
  expect_near(y, {0, 1, 11, -1});
  // Without weight and bias: ones and zeros.
  const Value plain = aten_batch_norm(x, std::nullopt, std::nullopt, Value(f32({1, 0})),
                                      Value(f32({4, 1})), false, 0.1, 0.0, false);
  expect_near(plain, {0, 1, 5, -1});
  // Training mode normalizes with the batch's statistics: two images of
  // one channel, [1, 3] and [5, 7]: mean 4, var 5.
  const Value trained = aten_batch_norm(f32({1, 3, 5, 7}, {2, 1, 2, 1}), std::nullopt, std::nullopt,
                                        std::nullopt, std::nullopt, true, 0.1, 0.0, false);
  const float s = std::sqrt(5.0f);
  expect_near(trained, {-3 / s, -1 / s, 1 / s, 3 / s}, 1e-4f);
  EXPECT_EQ(dims(trained), (std::vector<int64_t>{2, 1, 2, 1}));
}

TEST(TorchlibNn, LayerNormOverTheLastDimensions) {
  // Row [1, 3]: mean 2, var 1 -> [-1, 1]; scale [2, 1], bias [0, 10].
  const Tensor x = f32({1, 3, 2, 6}, {2, 2});
  expect_near(aten_layer_norm(x, {2}, Value(f32({2, 1})), Value(f32({0, 10})), 0.0, true),
              {-2, 11, -2, 11});
  expect_near(aten_layer_norm(x, {2}, std::nullopt, std::nullopt, 0.0, true), {-1, 1, -1, 1});
  // Over both dimensions: mean 3, var (4 + 0 + 1 + 9) / 4 = 3.5.
  const float s = std::sqrt(3.5f);
  expect_near(aten_layer_norm(x, {2, 2}, std::nullopt, std::nullopt, 0.0, true),
              {-2 / s, 0, -1 / s, 3 / s});
}

TEST(TorchlibNn, Pooling) {
  // 4x4 input 0..15.
  Tensor x(DataType::kFloat, {1, 1, 4, 4});
  for (int i = 0; i < 16; ++i) x.data<float>()[i] = static_cast<float>(i);
  // 2x2 windows, stride defaults to the kernel: maxima 5, 7, 13, 15; a
  // second image 100 higher gives its own.
  Tensor two(DataType::kFloat, {2, 1, 4, 4});
  for (int i = 0; i < 32; ++i) two.data<float>()[i] = static_cast<float>(i % 16 + 100 * (i / 16));
  expect_near(aten_max_pool2d(two, {2}, {}, {0}, {1}, false), {5, 7, 13, 15, 105, 107, 113, 115});
  // Averages of the same windows: 2.5, 4.5, 10.5, 12.5.
  expect_near(aten_avg_pool2d(x, {2, 2}, {}, {0}, false, true, std::nullopt),
              {2.5f, 4.5f, 10.5f, 12.5f});
  EXPECT_THROW(aten_avg_pool2d(x, {2}, {}, {0}, false, true, 3), NotImplementedError);
  expect_near(aten_adaptive_avg_pool2d(x, {1, 1}), {7.5f});
  expect_near(aten_adaptive_avg_pool2d(x, {2}), {2.5f, 4.5f, 10.5f, 12.5f});
  EXPECT_THROW(aten_adaptive_avg_pool2d(x, {3, 3}), NotImplementedError);
}

}  // namespace
}  // namespace onnxscript::torch_lib
