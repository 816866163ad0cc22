// torchlib's scatters and advanced indexing against PyTorch 1.13: expected
// values printed by torch at test-writing time (the expression is in the
// comment above each).
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

Tensor zeros(std::vector<int64_t> shape) { return Tensor(DataType::kFloat, std::move(shape)); }

TEST(TorchlibIndexing, Scatters) {
  // torch.zeros(2, 3).scatter(1, torch.tensor([[2], [0]]), torch.tensor([[5.], [6.]]))
  //   -> [[0, 0, 5], [6, 0, 0]]
  expect_close(aten_scatter_src(zeros({2, 3}), 1, i64({2, 0}, {2, 1}), f32({5, 6}, {2, 1})),
               {0, 0, 5, 6, 0, 0});
  // torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), 7.0) -> [[0, 7, 0], [7, 0, 7]]
  expect_close(aten_scatter_value(zeros({2, 3}), 0, i64({1, 0, 1}, {1, 3}), Value(7.0)),
               {0, 7, 0, 7, 0, 7});
  // torch.ones(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2, 3])) -> [4, 1, 4]
  expect_close(aten_scatter_add(f32({1, 1, 1}), 0, i64({0, 0, 2}), f32({1, 2, 3})), {4, 1, 4});
  // torch.ones(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5., 2, 3]), 'amax')
  //   -> [5, 1, 3]
  expect_close(
      aten_scatter_reduce_two(f32({1, 1, 1}), 0, i64({0, 0, 2}), f32({5, 2, 3}), "amax", true),
      {5, 1, 3});
  // The same with 'mean' -> [(1 + 5 + 2) / 3, 1, (1 + 3) / 2] = [8 / 3, 1, 2]
  expect_close(
      aten_scatter_reduce_two(f32({1, 1, 1}), 0, i64({0, 0, 2}), f32({5, 2, 3}), "mean", true),
      {8.0f / 3, 1, 2});
  // include_self=False: 'sum' -> [5 + 2, 1, 3], 'mean' -> [(5 + 2) / 2, 1, 3]
  expect_close(
      aten_scatter_reduce_two(f32({1, 1, 1}), 0, i64({0, 0, 2}), f32({5, 2, 3}), "sum", false),
      {7, 1, 3});
  expect_close(
      aten_scatter_reduce_two(f32({1, 1, 1}), 0, i64({0, 0, 2}), f32({5, 2, 3}), "mean", false),
      {3.5f, 1, 3});
  EXPECT_THROW(aten_scatter_reduce_src(f32({1}), 0, i64({0}), f32({1}), "median"), TypeError);
  // torch.select_scatter(torch.zeros(2, 3), torch.tensor([1., 2]), 1, -1) -> [[0, 0, 1], [0, 0, 2]]
  expect_close(aten_select_scatter(zeros({2, 3}), f32({1, 2}), 1, -1), {0, 0, 1, 0, 0, 2});
  // torch.slice_scatter(torch.zeros(2, 4), torch.ones(2, 2), 1, 0, None, 2)
  //   -> [[1, 0, 1, 0], [1, 0, 1, 0]]
  expect_close(aten_slice_scatter(zeros({2, 4}), f32({1, 1, 1, 1}, {2, 2}), 1, Value(int64_t{0}),
                                  std::nullopt, Value(int64_t{2})),
               {1, 0, 1, 0, 1, 0, 1, 0});
}

TEST(TorchlibIndexing, IndexTensor) {
  // xi = torch.arange(12).reshape(3, 4)
  const Tensor xi = i64({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  // xi[torch.tensor([2, 0])] -> [[8, 9, 10, 11], [0, 1, 2, 3]]
  EXPECT_EQ(elements<int64_t>(aten_index(xi, {Value(i64({2, 0}))})),
            (Ints{8, 9, 10, 11, 0, 1, 2, 3}));
  // xi[:, torch.tensor([1, 3])] -> [[1, 3], [5, 7], [9, 11]]
  const Value cols = aten_index(xi, {Value(), Value(i64({1, 3}))});
  EXPECT_EQ(elements<int64_t>(cols), (Ints{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(dims(cols), (Ints{3, 2}));
  // xi[xi > 8] -> [9, 10, 11]
  const Tensor m = Tensor::from<bool>(
      {false, false, false, false, false, false, false, false, false, true, true, true}, {3, 4});
  EXPECT_EQ(elements<int64_t>(aten_index(xi, {Value(m)})), (Ints{9, 10, 11}));
  // xi[torch.tensor([0, 2]), torch.tensor([1, 3])] -> [1, 11]
  EXPECT_EQ(elements<int64_t>(aten_index(xi, {Value(i64({0, 2})), Value(i64({1, 3}))})),
            (Ints{1, 11}));
  EXPECT_THROW(aten_index(xi, {Value(), Value()}), TypeError);
  EXPECT_THROW(aten_index(xi, {Value(i64({0})), Value(), Value(i64({0}))}), TypeError);
}

TEST(TorchlibIndexing, IndexPut) {
  // torch.zeros(3, 2).index_put((torch.tensor([0, 2]),), torch.tensor(5.0))
  //   -> [[5, 5], [0, 0], [5, 5]]
  expect_close(
      aten_index_put(zeros({3, 2}), {Value(i64({0, 2}))}, Value(Tensor::scalar<float>(5)), false),
      {5, 5, 0, 0, 5, 5});
  // torch.zeros(4).index_put((torch.tensor([1, 1, 3]),), torch.tensor([1., 2, 3]),
  //                          accumulate=True) -> [0, 3, 0, 3]
  expect_close(aten_index_put(zeros({4}), {Value(i64({1, 1, 3}))}, Value(f32({1, 2, 3})), true),
               {0, 3, 0, 3});
  // torch.arange(4.).index_put((torch.tensor([True, False, True, False]),), torch.tensor(-1.0))
  //   -> [-1, 1, -1, 3]
  expect_close(aten_index_put(f32({0, 1, 2, 3}), {Value(b8({true, false, true, false}))},
                              Value(Tensor::scalar<float>(-1)), false),
               {-1, 1, -1, 3});
  // torch.zeros(2, 2).index_put((torch.tensor([0, 1]), torch.tensor([1, 0])),
  //                             torch.tensor([7., 8])) -> [[0, 7], [8, 0]]
  expect_close(aten_index_put(zeros({2, 2}), {Value(i64({0, 1})), Value(i64({1, 0}))},
                              Value(f32({7, 8})), false),
               {0, 7, 8, 0});
  // x = torch.zeros(2, 3); x[:, torch.tensor([2])] = torch.tensor([[1.], [2.]])
  //   -> [[0, 0, 1], [0, 0, 2]] (by hand)
  expect_close(
      aten_index_put(zeros({2, 3}), {Value(), Value(i64({2}))}, Value(f32({1, 2}, {2, 1})), false),
      {0, 0, 1, 0, 0, 2});
}

TEST(TorchlibIndexing, MaskedScatterAndRepeatInterleaveByTensor) {
  // torch.tensor([[1., 2], [3, 4]]).masked_scatter(torch.tensor([[True, False], [True, True]]),
  //                                                torch.tensor([9., 8, 7, 6])) -> [[9, 2], [8, 7]]
  expect_close(aten_masked_scatter(f32({1, 2, 3, 4}, {2, 2}), b8({true, false, true, true}, {2, 2}),
                                   f32({9, 8, 7, 6})),
               {9, 2, 8, 7});
  // torch.repeat_interleave(torch.tensor([2, 0, 3])) -> [0, 0, 2, 2, 2]
  EXPECT_EQ(elements<int64_t>(aten_repeat_interleave_tensor(i64({2, 0, 3}), std::nullopt)),
            (Ints{0, 0, 2, 2, 2}));
  // torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 2]), dim=0)
  //   -> [[1, 2], [3, 4], [3, 4]]
  const Value r =
      aten_repeat_interleave_self_tensor(i64({1, 2, 3, 4}, {2, 2}), i64({1, 2}), 0, std::nullopt);
  EXPECT_EQ(elements<int64_t>(r), (Ints{1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(dims(r), (Ints{3, 2}));
  // One count for every element of the flattened tensor: [1, 1, 2, 2].
  EXPECT_EQ(elements<int64_t>(aten_repeat_interleave_self_tensor(i64({1, 2}), i64({2}),
                                                                 std::nullopt, std::nullopt)),
            (Ints{1, 1, 2, 2}));
}

}  // namespace
}  // namespace onnxscript::torch_lib
