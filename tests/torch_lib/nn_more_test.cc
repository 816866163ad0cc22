// torchlib's further neural-network layers against PyTorch 1.13: expected
// values printed by torch at test-writing time (the expression is in the
// comment above each; F is torch.nn.functional).
#include <gtest/gtest.h>

#include "onnxscript/torch_lib/ops.h"
#include "onnxscript/torch_lib/registry.h"
#include "torch_lib/values.h"

namespace onnxscript::torch_lib {
namespace {

using testing::dims;
using testing::expect_close;
using testing::f32;

using Ints = std::vector<int64_t>;

TEST(TorchlibNnMore, Convolutions) {
  // F.conv1d(torch.tensor([[[1., 2, 3, 4]]]), torch.tensor([[[1., 1]]]), torch.tensor([0.5]),
  //          stride=2) -> [[[3.5, 7.5]]]
  expect_close(aten_conv1d(f32({1, 2, 3, 4}, {1, 1, 4}), f32({1, 1}, {1, 1, 2}), Value(f32({0.5f})),
                           {2}, {0}, {1}, 1),
               {3.5f, 7.5f});
  // F.conv1d(torch.tensor([[[1., 2, 3, 4]]]), torch.tensor([[[1., 0, -1]]]), padding='same')
  //   -> [[[-2, -2, -2, 3]]]
  const Value same = aten_conv1d_padding(f32({1, 2, 3, 4}, {1, 1, 4}), f32({1, 0, -1}, {1, 1, 3}),
                                         std::nullopt, {1}, "same", {1}, 1);
  expect_close(same, {-2, -2, -2, 3});
  EXPECT_EQ(dims(aten_conv1d_padding(f32({1, 2, 3, 4}, {1, 1, 4}), f32({1, 0, -1}, {1, 1, 3}),
                                     std::nullopt, {1}, "valid", {1}, 1)),
            (Ints{1, 1, 2}));
  EXPECT_THROW(aten_conv1d_padding(f32({1, 2, 3, 4}, {1, 1, 4}), f32({1, 0, -1}, {1, 1, 3}),
                                   std::nullopt, {1}, "full", {1}, 1),
               TypeError);
  // A 1x1x1 kernel of 2 on a 2x1x1 volume doubles it.
  expect_close(aten_conv3d(f32({1, 3}, {1, 1, 2, 1, 1}), f32({2}, {1, 1, 1, 1, 1}), std::nullopt,
                           {1}, {0}, {1}, 1),
               {2, 6});
}

TEST(TorchlibNnMore, Pools) {
  const Tensor x = f32({1, 3, 2, 5, 4}, {1, 1, 5});
  // F.max_pool1d(x, 2) -> [3, 5]
  expect_close(aten_max_pool1d(x, {2}, {}, {0}, {1}, false), {3, 5});
  // F.avg_pool1d(x, 2, 1, 1) -> [0.5, 2, 2.5, 3.5, 4.5, 2]
  expect_close(aten_avg_pool1d(x, {2}, {1}, {1}, false, true), {0.5f, 2, 2.5f, 3.5f, 4.5f, 2});
  // ... count_include_pad=False -> [1, 2, 2.5, 3.5, 4.5, 4]
  expect_close(aten_avg_pool1d(x, {2}, {1}, {1}, false, false), {1, 2, 2.5f, 3.5f, 4.5f, 4});
  // A 2x2x2 volume pooled whole: max 7, mean 3.5.
  const Tensor v = f32({0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 2, 2});
  expect_close(aten_max_pool3d(v, {2}, {}, {0}, {1}, false), {7});
  expect_close(aten_avg_pool3d(v, {2}, {}, {0}, false, true, std::nullopt), {3.5f});
  // divisor_override=3: the sum 0 + 1 + ... + 7 = 28 over 3.
  expect_close(aten_avg_pool3d(v, {2}, {}, {0}, false, true, 3), {28.0f / 3});
  EXPECT_THROW(aten_avg_pool3d(v, {2}, {}, {0}, true, true, 3), TypeError);
}

TEST(TorchlibNnMore, Pads) {
  // F.pad(torch.arange(4.).reshape(1, 4), (2, 1), mode='reflect') -> [[2, 1, 0, 1, 2, 3, 2]]
  const Tensor row = f32({0, 1, 2, 3}, {1, 4});
  expect_close(aten_pad(row, {2, 1}, "reflect", std::nullopt), {2, 1, 0, 1, 2, 3, 2});
  expect_close(aten_reflection_pad(f32({0, 1, 2, 3}, {1, 1, 4}), {2, 1}), {2, 1, 0, 1, 2, 3, 2});
  // F.pad(torch.arange(4.).reshape(1, 1, 4), (1, 2), mode='replicate') -> [0, 0, 1, 2, 3, 3, 3]
  expect_close(aten_pad(f32({0, 1, 2, 3}, {1, 1, 4}), {1, 2}, "replicate", std::nullopt),
               {0, 0, 1, 2, 3, 3, 3});
  expect_close(aten_replication_pad(f32({0, 1, 2, 3}, {1, 1, 4}), {1, 2}), {0, 0, 1, 2, 3, 3, 3});
  // F.pad(row, (1, 0), value=9) -> [[9, 0, 1, 2, 3]]
  expect_close(aten_pad(row, {1, 0}, "constant", 9.0), {9, 0, 1, 2, 3});
  // F.pad(torch.arange(4.).reshape(1, 1, 4), (1, 2), mode='circular') -> [3, 0, 1, 2, 3, 0, 1]
  expect_close(aten_pad(f32({0, 1, 2, 3}, {1, 1, 4}), {1, 2}, "circular", std::nullopt),
               {3, 0, 1, 2, 3, 0, 1});
  // Cropping (negative) circular pads are not taken.
  EXPECT_THROW(aten_pad(row, {-1, 0}, "circular", std::nullopt), TypeError);
}

TEST(TorchlibNnMore, DropoutAndNormalizations) {
  const Tensor x = f32({1, 2, 3});
  expect_close(aten_dropout(x, 0.5, false), {1, 2, 3});
  const std::vector<Value> nd = aten_native_dropout(x, 0.5, false);
  expect_close(nd[0], {1, 2, 3});
  EXPECT_THROW(aten_native_dropout(x, 1.5, true), TypeError);
  // gx = torch.arange(8.).reshape(1, 4, 2)
  // F.group_norm(gx, 2, torch.tensor([1., 2, 1, 1]), torch.tensor([0., 0, 1, 0]))
  const Value g = aten_group_norm(f32({0, 1, 2, 3, 4, 5, 6, 7}, {1, 4, 2}), 2,
                                  Value(f32({1, 2, 1, 1})), Value(f32({0, 0, 1, 0})), 1e-5, true);
  expect_close(g, {-1.3416355f, -0.4472118f, 0.8944237f, 2.6832709f, -0.3416355f, 0.5527882f,
                   0.4472119f, 1.3416355f});
  EXPECT_EQ(dims(g), (Ints{1, 4, 2}));
  // F.instance_norm(torch.tensor([[[1., 3], [2, 2]]])) -> [[[-0.999995, 0.999995], [0, 0]]]
  expect_close(aten_instance_norm(f32({1, 3, 2, 2}, {1, 2, 2}), std::nullopt, std::nullopt,
                                  std::nullopt, std::nullopt, true, 0.1, 1e-5, true),
               {-0.999995f, 0.999995f, 0, 0});
  EXPECT_THROW(aten_instance_norm(f32({1, 3, 2, 2}, {1, 2, 2}), std::nullopt, std::nullopt,
                                  std::nullopt, std::nullopt, false, 0.1, 1e-5, true),
               TypeError);
}

TEST(TorchlibNnMore, RegisteredWithDefaults) {
  const Registry& r = torchlib_registry();
  // aten::max_pool1d with its default stride [] (the kernel size).
  expect_close(r.get_op_functions("aten::max_pool1d")[0](
                   {Value(f32({1, 3, 2, 5}, {1, 1, 4})), std::vector<int64_t>{2}})[0],
               {3, 5});
  for (const char* name : {"aten::conv1d", "aten::conv3d.padding", "aten::avg_pool3d",
                           "aten::reflection_pad2d", "aten::replication_pad3d", "aten::pad",
                           "aten::dropout", "aten::group_norm", "aten::instance_norm"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
}

}  // namespace
}  // namespace onnxscript::torch_lib
