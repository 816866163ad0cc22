// torchlib's further shape, indexing, creation and cast functions against
// PyTorch 1.13: expected values printed by torch at test-writing time (the
// expression is in the comment above each; F is torch.nn.functional and
// x = torch.arange(6).reshape(2, 3)).
#include <gtest/gtest.h>

#include "onnxscript/torch_lib/ops.h"
#include "onnxscript/torch_lib/registry.h"
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

Tensor sample() { return i64({0, 1, 2, 3, 4, 5}, {2, 3}); }

constexpr int64_t kFloat32 = 6;  // torch.float32's ScalarType code

TEST(TorchlibShapesMore, SqueezeUnsqueezeStack) {
  // torch.ones(1, 3, 1).squeeze() -> [3]
  EXPECT_EQ(dims(aten_squeeze(f32({1, 1, 1}, {1, 3, 1}))), (Ints{3}));
  // torch.ones(2, 3).squeeze(0) keeps [2, 3]; torch.ones(2, 1).squeeze(-1) -> [2]
  EXPECT_EQ(dims(aten_squeeze_dim(f32({1, 1, 1, 1, 1, 1}, {2, 3}), 0)), (Ints{2, 3}));
  EXPECT_EQ(dims(aten_squeeze_dim(f32({1, 1}, {2, 1}), -1)), (Ints{2}));
  // x.unsqueeze(-1) -> [2, 3, 1]
  EXPECT_EQ(dims(aten_unsqueeze(sample(), -1)), (Ints{2, 3, 1}));
  // torch.stack([torch.tensor([1, 2]), torch.tensor([3, 4])], dim=-1) -> [[1, 3], [2, 4]]
  const Value s = aten_stack({Value(i64({1, 2})), Value(i64({3, 4}))}, -1);
  EXPECT_EQ(elements<int64_t>(s), (Ints{1, 3, 2, 4}));
  EXPECT_EQ(dims(s), (Ints{2, 2}));
  EXPECT_THROW(aten_stack({}, 0), TypeError);
}

TEST(TorchlibShapesMore, SplitAndUnbind) {
  // torch.split(torch.arange(5), 2) -> [0, 1], [2, 3], [4]
  const std::vector<Value> parts = aten_split(i64({0, 1, 2, 3, 4}), 2, 0);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(elements<int64_t>(parts[2]), (Ints{4}));
  // torch.split(torch.arange(5), [1, 4]) -> [0], [1, 2, 3, 4]
  const std::vector<Value> sized = aten_split_with_sizes(i64({0, 1, 2, 3, 4}), {1, 4}, 0);
  ASSERT_EQ(sized.size(), 2u);
  EXPECT_EQ(elements<int64_t>(sized[1]), (Ints{1, 2, 3, 4}));
  // torch.unbind(x, 1) -> [0, 3], [1, 4], [2, 5]
  const std::vector<Value> cols = aten_unbind(sample(), 1);
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(elements<int64_t>(cols[1]), (Ints{1, 4}));
  EXPECT_EQ(dims(cols[1]), (Ints{2}));
  EXPECT_THROW(aten_split(sample(), 0, 0), TypeError);
}

TEST(TorchlibShapesMore, RepeatTileFlipRoll) {
  // torch.tensor([1, 2]).repeat(2, 2) -> [[1, 2, 1, 2], [1, 2, 1, 2]]
  const Value r = aten_repeat(i64({1, 2}), {2, 2});
  EXPECT_EQ(elements<int64_t>(r), (Ints{1, 2, 1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(dims(r), (Ints{2, 4}));
  EXPECT_THROW(aten_repeat(sample(), {2}), TypeError);
  // torch.tile(x, (2,)) -> [[0, 1, 2, 0, 1, 2], [3, 4, 5, 3, 4, 5]]
  EXPECT_EQ(elements<int64_t>(aten_tile(sample(), {2})),
            (Ints{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  // torch.flip(x, [0, 1]) -> [[5, 4, 3], [2, 1, 0]]
  EXPECT_EQ(elements<int64_t>(aten_flip(sample(), {0, 1})), (Ints{5, 4, 3, 2, 1, 0}));
  // torch.roll(x, 1, 1) -> [[2, 0, 1], [5, 3, 4]]
  EXPECT_EQ(elements<int64_t>(aten_roll(sample(), {1}, {1})), (Ints{2, 0, 1, 5, 3, 4}));
  // torch.roll(x, -2) -> [[2, 3, 4], [5, 0, 1]] (the flattened tensor)
  const Value flat = aten_roll(sample(), {-2}, {});
  EXPECT_EQ(elements<int64_t>(flat), (Ints{2, 3, 4, 5, 0, 1}));
  EXPECT_EQ(dims(flat), (Ints{2, 3}));
  // torch.roll(x, (1, -4), (0, 1)) -> [[4, 5, 3], [1, 2, 0]]
  EXPECT_EQ(elements<int64_t>(aten_roll(sample(), {1, -4}, {0, 1})), (Ints{4, 5, 3, 1, 2, 0}));
}

TEST(TorchlibShapesMore, NarrowIndexSelectGatherT) {
  // torch.narrow(torch.arange(5), 0, -2, 2) -> [3, 4]
  EXPECT_EQ(elements<int64_t>(aten_narrow(i64({0, 1, 2, 3, 4}), 0, -2, 2)), (Ints{3, 4}));
  // torch.narrow(x, 1, 1, 2) -> [[1, 2], [4, 5]]
  EXPECT_EQ(elements<int64_t>(aten_narrow(sample(), 1, 1, 2)), (Ints{1, 2, 4, 5}));
  EXPECT_EQ(
      elements<int64_t>(aten_narrow_tensor(sample(), 1, Value(Tensor::scalar<int64_t>(1)), 2)),
      (Ints{1, 2, 4, 5}));
  // torch.index_select(x, 1, torch.tensor([2, 0])) -> [[2, 0], [5, 3]]
  EXPECT_EQ(elements<int64_t>(aten_index_select(sample(), 1, i64({2, 0}))), (Ints{2, 0, 5, 3}));
  // torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]])) -> [[0, 0], [5, 4]]
  EXPECT_EQ(elements<int64_t>(aten_gather(sample(), 1, i64({0, 0, 2, 1}, {2, 2}), false)),
            (Ints{0, 0, 5, 4}));
  // x.t() -> [[0, 3], [1, 4], [2, 5]]
  const Value t = aten_t(sample());
  EXPECT_EQ(elements<int64_t>(t), (Ints{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(dims(t), (Ints{3, 2}));
  EXPECT_THROW(aten_t(f32({1}, {1, 1, 1})), TypeError);
  EXPECT_EQ(elements<int64_t>(aten_numel(sample())), (Ints{6}));
  EXPECT_EQ(dims(aten_expand_as(i64({1, 2, 3}), sample())), (Ints{2, 3}));
  EXPECT_EQ(dims(aten_reshape_as(sample(), f32({0, 0, 0, 0, 0, 0}, {3, 2}))), (Ints{3, 2}));
  // torch.broadcast_to(torch.tensor([1, 2]), (3, -1)) -> [[1, 2]] * 3
  EXPECT_EQ(elements<int64_t>(aten_broadcast_to(i64({1, 2}), Value(i64({3, -1})))),
            (Ints{1, 2, 1, 2, 1, 2}));
}

TEST(TorchlibShapesMore, PaddingPixelShuffleAtleast) {
  // F.pad(torch.ones(1, 2), (1, 2, 1, 0), value=5.0) -> [[5]*5, [5, 1, 1, 5, 5]]
  const Value p = aten_constant_pad_nd(f32({1, 1}, {1, 2}), {1, 2, 1, 0}, Value(5.0));
  expect_close(p, {5, 5, 5, 5, 5, 5, 1, 1, 5, 5});
  EXPECT_EQ(dims(p), (Ints{2, 5}));
  // torch.constant_pad_nd(torch.arange(4.), [-1, 1]) -> [1, 2, 3, 0]
  expect_close(aten_constant_pad_nd(f32({0, 1, 2, 3}), {-1, 1}, Value(int64_t{0})), {1, 2, 3, 0});
  EXPECT_THROW(aten_constant_pad_nd(f32({0}), {1}, Value(int64_t{0})), TypeError);
  // F.pixel_shuffle(torch.arange(8.).reshape(1, 4, 1, 2), 2) -> [1, 1, 2, 4]
  const Value ps = aten_pixel_shuffle(f32({0, 1, 2, 3, 4, 5, 6, 7}, {1, 4, 1, 2}), 2);
  expect_close(ps, {0, 2, 1, 3, 4, 6, 5, 7});
  EXPECT_EQ(dims(ps), (Ints{1, 1, 2, 4}));
  // torch.atleast_3d(torch.tensor([1, 2])) -> [1, 2, 1]
  EXPECT_EQ(dims(aten_atleast_3d(i64({1, 2}))), (Ints{1, 2, 1}));
  EXPECT_EQ(dims(aten_atleast_2d(Tensor::scalar<int64_t>(3))), (Ints{1, 1}));
  EXPECT_EQ(dims(aten_atleast_1d(Tensor::scalar<int64_t>(3))), (Ints{1}));
  // x.unflatten(...): torch.arange(6).unflatten(0, (2, 3)) -> [2, 3]
  EXPECT_EQ(dims(aten_unflatten(i64({0, 1, 2, 3, 4, 5}), 0, {2, 3})), (Ints{2, 3}));
}

TEST(TorchlibShapesMore, TopkSortNonzeroTrilOneHot) {
  // torch.topk(torch.tensor([1., 5, 3, 4]), 2) -> [5, 4], [1, 3]
  std::vector<Value> top = aten_topk(f32({1, 5, 3, 4}), 2, -1, true, true);
  expect_close(top[0], {5, 4});
  EXPECT_EQ(elements<int64_t>(top[1]), (Ints{1, 3}));
  // largest=False -> [1, 3], [0, 2]
  top = aten_topk(f32({1, 5, 3, 4}), 2, -1, false, true);
  expect_close(top[0], {1, 3});
  EXPECT_EQ(elements<int64_t>(top[1]), (Ints{0, 2}));
  // torch.sort(torch.tensor([3., 1, 2]), descending=True) -> [3, 2, 1], [0, 2, 1]
  const std::vector<Value> sorted = aten_sort(f32({3, 1, 2}), -1, true);
  expect_close(sorted[0], {3, 2, 1});
  EXPECT_EQ(elements<int64_t>(sorted[1]), (Ints{0, 2, 1}));
  expect_close(aten_sort(f32({3, 1, 2}), 0, false)[0], {1, 2, 3});
  // torch.nonzero(torch.tensor([[0, 1], [1, 1]])) -> [[0, 1], [1, 0], [1, 1]]
  const Value nz = aten_nonzero(i64({0, 1, 1, 1}, {2, 2}));
  EXPECT_EQ(elements<int64_t>(nz), (Ints{0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(dims(nz), (Ints{3, 2}));
  // m = torch.arange(1, 10.).reshape(3, 3); torch.tril(m); torch.triu(m, 1)
  const Tensor m = f32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  expect_close(aten_tril(m, 0), {1, 0, 0, 4, 5, 0, 7, 8, 9});
  expect_close(aten_triu(m, 1), {0, 2, 3, 0, 0, 6, 0, 0, 0});
  // F.one_hot(torch.tensor([0, 2, 1])) -> [[1,0,0],[0,0,1],[0,1,0]]; F.one_hot([1], 4)
  const Value oh = aten_one_hot(i64({0, 2, 1}), -1);
  EXPECT_EQ(elements<int64_t>(oh), (Ints{1, 0, 0, 0, 0, 1, 0, 1, 0}));
  EXPECT_EQ(dims(oh), (Ints{3, 3}));
  EXPECT_EQ(elements<int64_t>(aten_one_hot(i64({1}), 4)), (Ints{0, 1, 0, 0}));
  EXPECT_THROW(aten_one_hot(f32({1}), 2), TypeError);
}

TEST(TorchlibShapesMore, Factories) {
  const Value size = i64({2});
  // torch.full((2,), 3) -> int64; torch.full((2,), True) -> bool; torch.full((1, 2), 1.5)
  EXPECT_EQ(elements<int64_t>(aten_full(size, Value(int64_t{3}), std::nullopt, std::nullopt,
                                        std::nullopt, std::nullopt)),
            (Ints{3, 3}));
  EXPECT_EQ(elements<bool>(aten_full(size, Value(true), std::nullopt, std::nullopt, std::nullopt,
                                     std::nullopt)),
            (std::vector<bool>{true, true}));
  const Value ff =
      aten_full(i64({1, 2}), Value(1.5), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  expect_close(ff, {1.5f, 1.5f});
  EXPECT_EQ(dims(ff), (Ints{1, 2}));
  // torch.ones(2, 1) -> float32
  expect_close(aten_ones(i64({2, 1}), std::nullopt, std::nullopt, std::nullopt, std::nullopt),
               {1, 1});
  expect_close(
      aten_empty(size, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt),
      {0, 0});
  // torch.zeros_like(x) -> int64 zeros; torch.ones_like(x, dtype=torch.float32)
  EXPECT_EQ(elements<int64_t>(aten_zeros_like(sample(), std::nullopt, std::nullopt, std::nullopt,
                                              std::nullopt, std::nullopt)),
            (Ints{0, 0, 0, 0, 0, 0}));
  expect_close(
      aten_ones_like(sample(), kFloat32, std::nullopt, std::nullopt, std::nullopt, std::nullopt),
      {1, 1, 1, 1, 1, 1});
  // torch.full_like(x, 7) -> int64 7s
  EXPECT_EQ(
      elements<int64_t>(aten_full_like(sample(), Value(int64_t{7}), std::nullopt, std::nullopt,
                                       std::nullopt, std::nullopt, std::nullopt)),
      (Ints{7, 7, 7, 7, 7, 7}));
  // x.new_ones(2) -> int64 [1, 1]; x.new_full((2,), -1) -> int64 [-1, -1]
  EXPECT_EQ(elements<int64_t>(aten_new_ones(sample(), size, std::nullopt, std::nullopt,
                                            std::nullopt, std::nullopt)),
            (Ints{1, 1}));
  EXPECT_EQ(elements<int64_t>(aten_new_full(sample(), size, Value(int64_t{-1}), std::nullopt,
                                            std::nullopt, std::nullopt, std::nullopt)),
            (Ints{-1, -1}));
  // torch.scalar_tensor(2) -> float32 2 (0-D)
  const Value st =
      aten_scalar_tensor(Value(int64_t{2}), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  expect_close(st, {2});
  EXPECT_TRUE(dims(st).empty());
}

TEST(TorchlibShapesMore, Arange) {
  const auto none = std::nullopt;
  // torch.arange(5) -> int64 [0..4]
  EXPECT_EQ(elements<int64_t>(aten_arange(Value(int64_t{5}), none, none, none, none)),
            (Ints{0, 1, 2, 3, 4}));
  // torch.arange(1.0, 3) -> float32 [1, 2]
  expect_close(aten_arange_start(Value(1.0), Value(int64_t{3}), none, none, none, none), {1, 2});
  // torch.arange(0, 1, 0.3) -> float32 [0, 0.3, 0.6, 0.9]
  expect_close(aten_arange_start_step(Value(int64_t{0}), Value(int64_t{1}), Value(0.3), none, none,
                                      none, none),
               {0, 0.30000001192092896f, 0.6000000238418579f, 0.8999999761581421f});
  // torch.arange(5, 0, -2) -> int64 [5, 3, 1]
  EXPECT_EQ(elements<int64_t>(aten_arange_start_step(Value(int64_t{5}), Value(int64_t{0}),
                                                     Value(int64_t{-2}), none, none, none, none)),
            (Ints{5, 3, 1}));
  // dtype float32 for integer bounds.
  expect_close(aten_arange(Value(int64_t{2}), kFloat32, none, none, none), {0, 1});
}

TEST(TorchlibShapesMore, CastsAndIdentities) {
  // x.to(torch.float32)
  expect_close(aten_to_dtype(sample(), kFloat32, false, false, std::nullopt), {0, 1, 2, 3, 4, 5});
  expect_close(aten_type_as(i64({1, 2}), f32({0})), {1, 2});
  expect_close(aten_to_other(i64({1, 2}), f32({0}), false, false, std::nullopt), {1, 2});
  expect_close(aten_to_copy(i64({3}), kFloat32, std::nullopt, std::nullopt, std::nullopt, false,
                            std::nullopt),
               {3});
  EXPECT_EQ(elements<int64_t>(aten_to_prim_dtype(i64({3}), std::nullopt, false, false)), (Ints{3}));
  EXPECT_EQ(elements<bool>(aten_clone(b8({true}), std::nullopt)), (std::vector<bool>{true}));
  EXPECT_EQ(elements<int64_t>(aten_identity(i64({4}))), (Ints{4}));
}

TEST(TorchlibShapesMore, RegisteredWithDefaults) {
  const Registry& r = torchlib_registry();
  // aten::split.Tensor with dim 0 by default.
  EXPECT_EQ(r.get_op_functions("aten::split.Tensor")[0]({Value(i64({0, 1, 2})), int64_t{2}}).size(),
            2u);
  // aten::arange.start_step with step 1 by default.
  EXPECT_EQ(elements<int64_t>(
                r.get_op_functions("aten::arange.start_step")[0]({int64_t{2}, int64_t{4}})[0]),
            (Ints{2, 3}));
  for (const char* name : {"aten::squeeze.dim", "aten::view_as", "aten::detach", "aten::alias",
                           "aten::_to_copy", "aten::to.dtype", "aten::empty.memory_format",
                           "aten::new_zeros", "aten::concat", "aten::atleast_3d.Sequence"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
}

TEST(TorchlibShapesMore, MatrixTransposeFillCopyEinsumCross) {
  // torch.arange(6).reshape(1, 2, 3).mT -> [1, 3, 2]: [0, 3, 1, 4, 2, 5]
  const Value mt = aten_mT(i64({0, 1, 2, 3, 4, 5}, {1, 2, 3}));
  EXPECT_EQ(elements<int64_t>(mt), (Ints{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(dims(mt), (Ints{1, 3, 2}));
  EXPECT_THROW(aten_mT(i64({1})), TypeError);
  EXPECT_EQ(elements<int64_t>(aten_fill(sample(), Value(int64_t{9}))), (Ints{9, 9, 9, 9, 9, 9}));
  EXPECT_EQ(elements<int64_t>(aten_fill(sample(), Value(f32({2.7f})))), (Ints{2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(elements<int64_t>(aten_copy(sample(), f32({1, 2, 3}), false)),
            (Ints{1, 2, 3, 1, 2, 3}));
  // torch.einsum('ij,jk->ik', M, M) with M = [[1, 2], [3, 4]] -> [[7, 10], [15, 22]]
  const Tensor m = f32({1, 2, 3, 4}, {2, 2});
  expect_close(aten_einsum("ij,jk->ik", {Value(m), Value(m)}, std::nullopt), {7, 10, 15, 22});
  // torch.linalg.cross(torch.tensor([1., 0, 0]), torch.tensor([0., 1, 0])) -> [0, 0, 1]
  expect_close(aten_linalg_cross(f32({1, 0, 0}), f32({0, 1, 0}), -1), {0, 0, 1});
  // torch.cross(torch.tensor([[1., 2, 3]]), torch.tensor([[4., 5, 6]])) -> [[-3, 6, -3]]
  expect_close(aten_cross(f32({1, 2, 3}, {1, 3}), f32({4, 5, 6}, {1, 3}), std::nullopt),
               {-3, 6, -3});
  EXPECT_THROW(aten_cross(f32({1, 2}), f32({1, 2}), std::nullopt), TypeError);
}

TEST(TorchlibShapesMore, RepeatInterleaveUnfoldPixelUnshuffleDiagonal) {
  // torch.repeat_interleave(x, 2, dim=1) -> [[0, 0, 1, 1, 2, 2], [3, 3, 4, 4, 5, 5]]
  const Value ri = aten_repeat_interleave(sample(), 2, 1, std::nullopt);
  EXPECT_EQ(elements<int64_t>(ri), (Ints{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  EXPECT_EQ(dims(ri), (Ints{2, 6}));
  // torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2) -> [1, 1, 2, 2, 3, 3, 4, 4]
  EXPECT_EQ(elements<int64_t>(
                aten_repeat_interleave(i64({1, 2, 3, 4}, {2, 2}), 2, std::nullopt, std::nullopt)),
            (Ints{1, 1, 2, 2, 3, 3, 4, 4}));
  // torch.arange(7).unfold(0, 3, 2) -> [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
  const Value u = aten_unfold(i64({0, 1, 2, 3, 4, 5, 6}), 0, 3, 2);
  EXPECT_EQ(elements<int64_t>(u), (Ints{0, 1, 2, 2, 3, 4, 4, 5, 6}));
  EXPECT_EQ(dims(u), (Ints{3, 3}));
  // x.unfold(1, 2, 1) -> [2, 2, 2]: [0, 1, 1, 2, 3, 4, 4, 5]
  const Value u2 = aten_unfold(sample(), 1, 2, 1);
  EXPECT_EQ(elements<int64_t>(u2), (Ints{0, 1, 1, 2, 3, 4, 4, 5}));
  EXPECT_EQ(dims(u2), (Ints{2, 2, 2}));
  // F.pixel_unshuffle(torch.arange(16.).reshape(1, 1, 4, 4), 2) -> [1, 4, 2, 2]
  std::vector<float> ramp;
  for (int i = 0; i < 16; ++i) ramp.push_back(static_cast<float>(i));
  const Value pu = aten_pixel_unshuffle(Tensor::from_span<float>(ramp, {1, 1, 4, 4}), 2);
  expect_close(pu, {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15});
  EXPECT_EQ(dims(pu), (Ints{1, 4, 2, 2}));
  // m3 = torch.arange(12).reshape(3, 4): diagonal -> [0, 5, 10], offset 1 -> [1, 6, 11],
  // offset -1 -> [4, 9]
  const Tensor m3 = i64({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  EXPECT_EQ(elements<int64_t>(aten_diagonal(m3, 0, 0, 1)), (Ints{0, 5, 10}));
  EXPECT_EQ(elements<int64_t>(aten_diagonal(m3, 1, 0, 1)), (Ints{1, 6, 11}));
  EXPECT_EQ(elements<int64_t>(aten_diagonal(m3, -1, 0, 1)), (Ints{4, 9}));
  // torch.diagonal(torch.arange(8).reshape(2, 2, 2), 0, 1, 2) -> [[0, 3], [4, 7]]
  const Value d3 = aten_diagonal(i64({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2}), 0, 1, 2);
  EXPECT_EQ(elements<int64_t>(d3), (Ints{0, 3, 4, 7}));
  EXPECT_EQ(dims(d3), (Ints{2, 2}));
}

TEST(TorchlibShapesMore, LinspaceAndTensor) {
  const auto none = std::nullopt;
  // torch.linspace(0, 1, 5) -> [0, 0.25, 0.5, 0.75, 1]
  expect_close(aten_linspace(Value(int64_t{0}), Value(int64_t{1}), 5, none, none, none, none),
               {0, 0.25f, 0.5f, 0.75f, 1});
  // torch.linspace(0, 10, 4, dtype=torch.int64) -> [0, 3, 6, 10]
  EXPECT_EQ(elements<int64_t>(
                aten_linspace(Value(int64_t{0}), Value(int64_t{10}), 4, 4, none, none, none)),
            (Ints{0, 3, 6, 10}));
  // torch.linspace(2, 3, 1) -> [2]
  expect_close(aten_linspace(Value(int64_t{2}), Value(int64_t{3}), 1, none, none, none, none), {2});
  // torch.tensor(1.5) -> float32; torch.tensor(3) -> int64; torch.tensor(True) -> bool
  expect_close(aten_tensor(Value(1.5), none, none, false), {1.5f});
  EXPECT_EQ(elements<int64_t>(aten_tensor(Value(int64_t{3}), none, none, false)), (Ints{3}));
  EXPECT_EQ(elements<bool>(aten_tensor(Value(true), none, none, false)), (std::vector<bool>{true}));
}

}  // namespace
}  // namespace onnxscript::torch_lib
