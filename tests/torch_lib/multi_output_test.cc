// torchlib's multi-output and remaining layers: max_pool*_with_indices,
// native_batch_norm, native_group_norm, native_dropout, _unique2,
// unique_dim; and grid_sampler, col2im, det, logdet, bilinear, the windows,
// _softmax. Expected values printed by PyTorch 1.13 at test-writing time
// (the expression is in the comment above each; F is torch.nn.functional).
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

TEST(TorchlibMultiOutput, MaxPoolIndicesCountWithinEachPlane) {
  // x = torch.tensor([[[[1., 5, 2, 0], [3, 4, 9, 1]]], [[[7, 0, 0, 8], [1, 2, 3, 4]]]])
  // F.max_pool2d(x, 2, return_indices=True) -> [5, 9, 7, 8], [1, 6, 0, 3]
  const Tensor x = f32({1, 5, 2, 0, 3, 4, 9, 1, 7, 0, 0, 8, 1, 2, 3, 4}, {2, 1, 2, 4});
  const std::vector<Value> p = aten_max_pool2d_with_indices(x, {2}, {}, {0}, {1}, false);
  expect_close(p[0], {5, 9, 7, 8});
  EXPECT_EQ(elements<int64_t>(p[1]), (Ints{1, 6, 0, 3}));
  EXPECT_EQ(dims(p[1]), (Ints{2, 1, 1, 2}));
  // F.max_pool1d(torch.tensor([[[1., 3, 2, 5, 4, 0]], [[6., 1, 1, 1, 1, 7]]]), 2,
  //              return_indices=True) -> [3, 5, 4, 6, 1, 7], [1, 3, 4, 0, 2, 5]
  const std::vector<Value> q = aten_max_pool1d_with_indices(
      f32({1, 3, 2, 5, 4, 0, 6, 1, 1, 1, 1, 7}, {2, 1, 6}), {2}, {}, {0}, {1}, false);
  expect_close(q[0], {3, 5, 4, 6, 1, 7});
  EXPECT_EQ(elements<int64_t>(q[1]), (Ints{1, 3, 4, 0, 2, 5}));
}

TEST(TorchlibMultiOutput, NativeNormalizationsGiveTheirStatistics) {
  // torch.native_batch_norm(torch.tensor([[[1., 3], [2, 6]], [[0, 4], [2, 2]]]),
  //     torch.tensor([1., 2]), torch.tensor([0., 1]), None, None, True, 0.1, 1e-5)
  const std::vector<Value> bn =
      aten_native_batch_norm(f32({1, 3, 2, 6, 0, 4, 2, 2}, {2, 2, 2}), Value(f32({1, 2})),
                             Value(f32({0, 1})), std::nullopt, std::nullopt, true, 0.1, 1e-5);
  expect_close(bn[0], {-0.632454f, 0.632454f, -0.154699f, 4.464096f, -1.264909f, 1.264909f,
                       -0.154699f, -0.154699f});
  expect_close(bn[1], {2, 3});
  expect_close(bn[2], {0.632454f, 0.577349f});
  // Inference: the running statistics, and empty saved statistics.
  const std::vector<Value> bi =
      aten_native_batch_norm(f32({1, 3}, {1, 2}), std::nullopt, std::nullopt, Value(f32({1, 1})),
                             Value(f32({4, 4})), false, 0.1, 0);
  expect_close(bi[0], {0, 1});
  EXPECT_EQ(dims(bi[1]), (Ints{0}));
  // torch.native_group_norm(torch.arange(8.).reshape(1, 4, 2), None, None, 1, 4, 2, 2, 1e-5)
  const std::vector<Value> gn = aten_native_group_norm(
      f32({0, 1, 2, 3, 4, 5, 6, 7}, {1, 4, 2}), std::nullopt, std::nullopt, 1, 4, 2, 2, 1e-5);
  expect_close(gn[0], {-1.341635f, -0.447212f, 0.447212f, 1.341635f, -1.341635f, -0.447212f,
                       0.447212f, 1.341635f});
  EXPECT_EQ(dims(gn[0]), (Ints{1, 4, 2}));
  expect_close(gn[1], {1.5f, 5.5f});
  EXPECT_EQ(dims(gn[1]), (Ints{1, 2}));
  expect_close(gn[2], {0.894424f, 0.894424f});
  EXPECT_THROW(aten_native_group_norm(f32({0, 1, 2}, {1, 3, 1}), std::nullopt, std::nullopt, 1, 3,
                                      1, 2, 1e-5),
               TypeError);
}

TEST(TorchlibMultiOutput, NativeDropoutMaskMarksTheKeptElements) {
  // p = 1 drops everything: output 0, mask false.
  const std::vector<Value> all = aten_native_dropout(f32({1, 2, 3}), 1.0, true);
  expect_close(all[0], {0, 0, 0});
  EXPECT_EQ(elements<bool>(all[1]), (std::vector<bool>{false, false, false}));
  const std::vector<Value> none = aten_native_dropout(f32({1, 2}), 0.5, false);
  expect_close(none[0], {1, 2});
  EXPECT_EQ(elements<bool>(none[1]), (std::vector<bool>{true, true}));
}

TEST(TorchlibMultiOutput, Unique) {
  // torch._unique2(torch.tensor([[3, 1], [3, 2]]), True, True, True)
  //   -> [1, 2, 3], [[2, 0], [2, 1]], [1, 1, 2]
  const std::vector<Value> u = aten_unique2(i64({3, 1, 3, 2}, {2, 2}), true, true, true);
  EXPECT_EQ(elements<int64_t>(u[0]), (Ints{1, 2, 3}));
  EXPECT_EQ(elements<int64_t>(u[1]), (Ints{2, 0, 2, 1}));
  EXPECT_EQ(dims(u[1]), (Ints{2, 2}));
  EXPECT_EQ(elements<int64_t>(u[2]), (Ints{1, 1, 2}));
  EXPECT_EQ(dims(aten_unique(i64({3, 1}), true, false)[1]), (Ints{0}));
  // torch.unique(torch.tensor([[1, 2], [3, 4], [1, 2]]), dim=0, return_inverse=True,
  //              return_counts=True) -> [[1, 2], [3, 4]], [0, 1, 0], [2, 1]
  const std::vector<Value> d =
      aten_unique_dim(i64({1, 2, 3, 4, 1, 2}, {3, 2}), 0, true, true, true);
  EXPECT_EQ(elements<int64_t>(d[0]), (Ints{1, 2, 3, 4}));
  EXPECT_EQ(elements<int64_t>(d[1]), (Ints{0, 1, 0}));
  EXPECT_EQ(elements<int64_t>(d[2]), (Ints{2, 1}));
}

TEST(TorchlibNnMore, GridSamplerAndCol2im) {
  // img = torch.arange(4.).reshape(1, 1, 2, 2)
  // g = torch.tensor([[[[-1., -1], [1, 1]], [[0, 0], [0.5, -0.5]]]])
  const Tensor img = f32({0, 1, 2, 3}, {1, 1, 2, 2});
  const Tensor g = f32({-1, -1, 1, 1, 0, 0, 0.5f, -0.5f}, {1, 2, 2, 2});
  // F.grid_sample(img, g, mode='bilinear', padding_mode='zeros', align_corners=True)
  expect_close(aten_grid_sampler(img, g, 0, 0, true), {0, 3, 1.5f, 1.25f});
  // F.grid_sample(img, g, mode='nearest', padding_mode='border', align_corners=False)
  expect_close(aten_grid_sampler(img, g, 1, 1, false), {0, 3, 0, 1});
  EXPECT_THROW(aten_grid_sampler(img, g, 3, 0, true), TypeError);
  // F.fold(torch.arange(1., 13.).reshape(1, 2, 6), output_size=(3, 3), kernel_size=(1, 2))
  std::vector<float> cols;
  for (int i = 1; i <= 12; ++i) cols.push_back(static_cast<float>(i));
  const Value folded =
      aten_col2im(Tensor::from_span<float>(cols, {1, 2, 6}), {3, 3}, {1, 2}, {1}, {0}, {1});
  expect_close(folded, {1, 9, 8, 3, 13, 10, 5, 17, 12});
  EXPECT_EQ(dims(folded), (Ints{1, 1, 3, 3}));
}

TEST(TorchlibLinearAlgebraMore, DetLogdetBilinear) {
  // torch.det(torch.tensor([[1., 2], [3, 4]])) -> -2
  expect_close(aten_det(f32({1, 2, 3, 4}, {2, 2})), {-2});
  // torch.logdet(torch.tensor([[2., 0], [0, 3]])) -> log 6 = 1.791759
  expect_close(aten_logdet(f32({2, 0, 0, 3}, {2, 2})), {1.791759f});
  EXPECT_THROW(aten_det(f32({1, 2})), TypeError);
  // F.bilinear(torch.tensor([[1., 2]]), torch.tensor([[3., 4, 5]]),
  //            torch.arange(12.).reshape(2, 2, 3), torch.tensor([1., -1])) -> [[115, 329]]
  std::vector<float> w;
  for (int i = 0; i < 12; ++i) w.push_back(static_cast<float>(i));
  expect_close(aten_bilinear(f32({1, 2}, {1, 2}), f32({3, 4, 5}, {1, 3}),
                             Tensor::from_span<float>(w, {2, 2, 3}), Value(f32({1, -1}))),
               {115, 329});
}

TEST(TorchlibShapesMore, WindowsAndSoftmax) {
  const auto none = std::nullopt;
  // torch.hann_window(5); torch.hann_window(5, periodic=False)
  expect_close(aten_hann_window_default(5, none, none, none, none),
               {0, 0.345492f, 0.904509f, 0.904508f, 0.345491f});
  expect_close(aten_hann_window(5, false, none, none, none, none), {0, 0.5f, 1, 0.5f, 0});
  // torch.hamming_window(4) -> [0.08, 0.54, 1, 0.54]
  expect_close(aten_hamming_window_default(4, none, none, none, none), {0.08f, 0.54f, 1, 0.54f});
  // torch.hamming_window(5, True, 0.6) -> [0.14, 0.457852, 0.972148, 0.972148, 0.457852]
  expect_close(aten_hamming_window_alpha(5, true, 0.6, none, none, none, none),
               {0.14f, 0.457852f, 0.972148f, 0.972148f, 0.457852f});
  // torch.blackman_window(5) -> [0, 0.20077, 0.84923, 0.84923, 0.20077]
  expect_close(aten_blackman_window_default(5, none, none, none, none),
               {0, 0.20077f, 0.84923f, 0.84923f, 0.20077f});
  expect_close(aten_hann_window_default(1, none, none, none, none), {1});
  // torch._softmax(torch.tensor([0.0, 0.6931472]), 0, False) -> [1/3, 2/3]
  expect_close(aten_softmax_half(f32({0, 0.6931472f}), 0, false), {1.0f / 3, 2.0f / 3});
}

}  // namespace
}  // namespace onnxscript::torch_lib
