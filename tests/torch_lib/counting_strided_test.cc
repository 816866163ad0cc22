// torchlib's counting, strided, quantizing, embedding_bag and Fourier
// functions, eagerly, against values worked out by hand (the arithmetic is
// in the comment beside each), and their errors for what cannot export.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "onnxscript/torch_lib/ops.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::b8;
using testing::dims;
using testing::elements;
using testing::expect_close;
using testing::f32;
using testing::i64;

using Ints = std::vector<int64_t>;

TEST(TorchlibCounting, Histc) {
  // 4 bins of width 0.5 over [0, 2]: 0 and 0.4 in bin 0, 0.5 in bin 1, 1.9
  // and 2 (the right edge) in bin 3; -1 and 2.5 outside.
  expect_close(aten_histc(f32({0, 0.4f, 0.5f, 1.9f, 2, -1, 2.5f}), 4, Value(0), Value(2)),
               {2, 1, 0, 2});
  // min == max: the data's range [1, 5], 4 bins of width 1: 1 | 2 2 | 3 | 5.
  expect_close(aten_histc(f32({1, 2, 2, 3, 5}), 4, Value(0), Value(0)), {1, 2, 1, 1});
  // One value, 2: the range [1, 3], 4 bins of width 0.5: 2 in bin 2.
  expect_close(aten_histc(f32({2, 2, 2}), 4, Value(0), Value(0)), {0, 0, 3, 0});
  EXPECT_THROW(aten_histc(i64({1, 2}), 2, Value(0), Value(1)), TypeError);
  EXPECT_THROW(aten_histc(f32({1, 2}), 2, Value(3), Value(1)), TypeError);
  EXPECT_THROW(aten_histc(f32({1, 2}), 0, Value(0), Value(1)), TypeError);
}

TEST(TorchlibCounting, Bincount) {
  // 0 once, 1 never, 3 twice: [1, 0, 0, 2].
  EXPECT_EQ(elements<int64_t>(aten_bincount(i64({0, 3, 3}), std::nullopt, 0)),
            (std::vector<int64_t>{1, 0, 0, 2}));
  // minlength 6 beyond the largest value.
  EXPECT_EQ(elements<int64_t>(aten_bincount(i64({1}), std::nullopt, 6)),
            (std::vector<int64_t>{0, 1, 0, 0, 0, 0}));
  // Weights: bin 0 gets 0.5, bin 2 gets 1 + 2.
  expect_close(aten_bincount(i64({0, 2, 2}), Value(f32({0.5f, 1, 2})), 0), {0.5f, 0, 3});
  EXPECT_THROW(aten_bincount(f32({1}), std::nullopt, 0), TypeError);
  EXPECT_THROW(aten_bincount(i64({1, 2}, {1, 2}), std::nullopt, 0), TypeError);
}

TEST(TorchlibCounting, UniqueConsecutive) {
  // Runs 1 1 | 2 2 | 3 | 1 1 | 2.
  const std::vector<Value> all =
      aten_unique_consecutive(i64({1, 1, 2, 2, 3, 1, 1, 2}), true, true, std::nullopt);
  EXPECT_EQ(elements<int64_t>(all[0]), (std::vector<int64_t>{1, 2, 3, 1, 2}));
  EXPECT_EQ(elements<int64_t>(all[1]), (std::vector<int64_t>{0, 0, 1, 1, 2, 3, 3, 4}));
  EXPECT_EQ(elements<int64_t>(all[2]), (std::vector<int64_t>{2, 2, 1, 2, 1}));
  // Outputs not asked for are empty.
  const std::vector<Value> values_only =
      aten_unique_consecutive(i64({5, 5}), false, false, std::nullopt);
  EXPECT_EQ(dims(values_only[1]), (Ints{0}));
  EXPECT_EQ(dims(values_only[2]), (Ints{0}));
  // Rows [0 1] [0 1] [1 1]: two runs along dim 0.
  const std::vector<Value> rows =
      aten_unique_consecutive(i64({0, 1, 0, 1, 1, 1}, {3, 2}), false, false, 0);
  EXPECT_EQ(elements<int64_t>(rows[0]), (std::vector<int64_t>{0, 1, 1, 1}));
  EXPECT_EQ(elements<int64_t>(rows[1]), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(elements<int64_t>(rows[2]), (std::vector<int64_t>{2, 1}));
}

TEST(TorchlibStrided, AsStrided) {
  // Elements 0..5; size [2, 2], stride [1, 2], offset 1: [[1, 3], [2, 4]].
  expect_close(aten_as_strided(f32({0, 1, 2, 3, 4, 5}), {2, 2}, {1, 2}, 1), {1, 3, 2, 4});
  // Reading past the end is an error naming the element.
  EXPECT_THROW(aten_as_strided(f32({0, 1, 2}), {2}, {3}, std::nullopt), TypeError);
  EXPECT_THROW(aten_as_strided(f32({0, 1, 2}), {2}, {1, 1}, std::nullopt), TypeError);
}

TEST(TorchlibStrided, Im2col) {
  // One channel [[1, 2, 3], [4, 5, 6], [7, 8, 9]], 2x2 blocks, stride 1: four
  // blocks (columns), each column (top-left, top-right, bottom-left,
  // bottom-right).
  const Value col =
      aten_im2col(f32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}), {2, 2}, {1, 1}, {0, 0}, {1, 1});
  EXPECT_EQ(dims(col), (Ints{1, 4, 4}));
  expect_close(col, {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9});
  EXPECT_THROW(aten_im2col(f32({1, 2}), {1, 1}, {1, 1}, {0, 0}, {1, 1}), TypeError);
  EXPECT_THROW(aten_im2col(f32({1, 2, 3, 4}, {1, 2, 2}), {3, 3}, {1, 1}, {0, 0}, {1, 1}),
               TypeError);
}

TEST(TorchlibQuantize, FakeQuantize) {
  // scale 0.5, zero point 1, [0, 3]: x * 2 = -2, 0.2, 1.5, 2.5, 6 rounds
  // (half to even) to -2, 0, 2, 2, 6 -> + 1 -> -1, 1, 3, 3, 7 -> clamped ->
  // 0, 1, 3, 3, 3 -> - 1, * 0.5 -> -0.5, 0, 1, 1, 1.
  expect_close(aten_fake_quantize_per_tensor_affine(f32({-1, 0.1f, 0.75f, 1.25f, 3}), 0.5, 1, 0, 3),
               {-0.5f, 0, 1, 1, 1});
  EXPECT_THROW(aten_fake_quantize_per_tensor_affine(f32({1}), 0.5, 9, 0, 3), TypeError);
  EXPECT_THROW(aten_fake_quantize_per_tensor_affine(i64({1}), 0.5, 0, 0, 3), TypeError);
  // Per channel along dim 0: scales 1 and 0.25, zero points 0: row 0 rounds
  // 0.6 -> 1, row 1 rounds 0.6 / 0.25 = 2.4 -> 2 -> 0.5.
  expect_close(
      aten_fake_quantize_per_channel_affine(f32({0.6f, 0.6f}, {2, 1}), Value(f32({1, 0.25f})),
                                            Value(Tensor::from<int32_t>({0, 0})), 0, -8, 7),
      {1, 0.5f});
}

TEST(TorchlibEmbeddingBag, Modes) {
  // Rows [0 1] [2 3] [4 5]; indices 0 2 | (empty) | 1 2.
  const Value weight(f32({0, 1, 2, 3, 4, 5}, {3, 2}));
  const Value indices(i64({0, 2, 1, 2}));
  const Value offsets(i64({0, 2, 2}));
  expect_close(
      aten_embedding_bag(weight, indices, offsets, false, 0, false, std::nullopt, false)[0],
      {4, 6, 0, 0, 6, 8});
  const std::vector<Value> mean =
      aten_embedding_bag(weight, indices, offsets, false, 1, false, std::nullopt, false);
  expect_close(mean[0], {2, 3, 0, 0, 3, 4});
  EXPECT_EQ(elements<int64_t>(mean[1]), (std::vector<int64_t>{0, 0, 2, 2}));
  EXPECT_EQ(elements<int64_t>(mean[2]), (std::vector<int64_t>{2, 0, 2}));
  const std::vector<Value> max =
      aten_embedding_bag(weight, indices, offsets, false, 2, false, std::nullopt, false);
  expect_close(max[0], {4, 5, 0, 0, 4, 5});
  EXPECT_EQ(elements<int64_t>(max[3]), (std::vector<int64_t>{2, 2, 0, 0, 2, 2}));
  // padding_idx 2 leaves row 2 out: bag 0 is row 0 alone, bag 2 row 1 alone.
  expect_close(aten_embedding_bag_padding_idx(weight, indices, offsets, false, 1, false,
                                              std::nullopt, false, 2)[0],
               {0, 1, 0, 0, 2, 3});
  EXPECT_THROW(aten_embedding_bag(weight, indices, offsets, false, 3, false, std::nullopt, false),
               TypeError);
  EXPECT_THROW(aten_embedding_bag(weight, indices, offsets, false, 1, false,
                                  Value(f32({1, 1, 1, 1})), false),
               TypeError);
}

TEST(TorchlibFft, Transforms) {
  // The DFT of [1, 2, 3, 4]: X0 = 10, X1 = -2 + 2i, X2 = -2 (one-sided: 3 bins).
  const Value r2c = aten_fft_r2c(f32({1, 2, 3, 4}), {0}, 0, true);
  EXPECT_EQ(dims(r2c), (Ints{3, 2}));
  expect_close(r2c, {10, 0, -2, 2, -2, 0});
  // By n (normalization 2): divided by 4.
  expect_close(aten_fft_r2c(f32({1, 2, 3, 4}), {0}, 2, true), {2.5f, 0, -0.5f, 0.5f, -0.5f, 0});
  // The backward transform of that spectrum by n gives the signal back,
  // both from the full spectrum (c2c) and from its one-sided half (c2r).
  expect_close(aten_fft_c2c(f32({10, 0, -2, 2, -2, 0, -2, -2}, {4, 2}), {0}, 2, false),
               {1, 0, 2, 0, 3, 0, 4, 0});
  expect_close(aten_fft_c2r(f32({10, 0, -2, 2, -2, 0}, {3, 2}), {0}, 2, 4), {1, 2, 3, 4});
  EXPECT_THROW(aten_fft_c2c(f32({1, 2, 3}), {0}, 0, true), TypeError);
  EXPECT_THROW(aten_fft_r2c(f32({1, 2}), {0}, 3, true), TypeError);
  // polar(2, pi / 2) = (0, 2).
  expect_close(aten_polar(Value(f32({2})), Value(f32({static_cast<float>(std::numbers::pi / 2)}))),
               {0, 2});
}

TEST(TorchlibUpsample, AntialiasedAlignCornersIsAnError) {
  // PyTorch centers the anti-aliased filter where no Resize mode does.
  const Value x(Tensor(DataType::kFloat, {1, 1, 4, 4}));
  EXPECT_THROW(aten_upsample_bilinear2d_aa(x, Value(Tensor::from<int64_t>({2, 2})), true,
                                           std::nullopt, std::nullopt),
               NotImplementedError);
  EXPECT_EQ(dims(aten_upsample_bicubic2d_aa(x, Value(Tensor::from<int64_t>({2, 3})), false,
                                            std::nullopt, std::nullopt)),
            (Ints{1, 1, 2, 3}));
}

}  // namespace
}  // namespace onnxscript::torch_lib
