// torchlib's prims:: overloads against PyTorch 1.13's primitives: expected
// values printed by torch at test-writing time (torch.ops.prims.<name>, in
// the comment above each).
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

TEST(TorchlibPrims, DivTruncatesIntegersAndRemainderFollowsTheDivisor) {
  // prims.div(torch.tensor([7, -7]), torch.tensor([2, 2])) -> [3, -3]
  EXPECT_EQ(elements<int64_t>(prims_div(i64({7, -7}), i64({2, 2}))), (Ints{3, -3}));
  expect_close(prims_div(f32({7, -7}), f32({2, 2})), {3.5f, -3.5f});
  // prims.remainder(torch.tensor([7, -7]), torch.tensor([2, 2])) -> [1, 1]
  const Registry& r = torchlib_registry();
  EXPECT_EQ(elements<int64_t>(r.get_op_functions("prims::remainder")[0](
                {Value(i64({7, -7})), Value(i64({2, 2}))})[0]),
            (Ints{1, 1}));
  // prims.round(torch.tensor([0.5, 1.5, 2.5])) -> [0, 2, 2]
  expect_close(r.get_op_functions("prims::round")[0]({Value(f32({0.5f, 1.5f, 2.5f}))})[0],
               {0, 2, 2});
}

TEST(TorchlibPrims, BroadcastInDimSumVar) {
  // prims.broadcast_in_dim(torch.tensor([1, 2, 3]), [2, 3], [1]) -> [[1, 2, 3], [1, 2, 3]]
  EXPECT_EQ(elements<int64_t>(prims_broadcast_in_dim(i64({1, 2, 3}), Value(i64({2, 3})), {1})),
            (Ints{1, 2, 3, 1, 2, 3}));
  // prims.broadcast_in_dim(torch.tensor([1, 2]), [2, 1, 3], [0]) -> [[[1, 1, 1]], [[2, 2, 2]]]
  const Value b = prims_broadcast_in_dim(i64({1, 2}), Value(i64({2, 1, 3})), {0});
  EXPECT_EQ(elements<int64_t>(b), (Ints{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(dims(b), (Ints{2, 1, 3}));
  // prims.sum(torch.ones(2, 3), [1]) -> [3, 3]; [] reduces everything
  const Tensor ones = f32({1, 1, 1, 1, 1, 1}, {2, 3});
  expect_close(prims_sum(ones, Ints{1}, std::nullopt), {3, 3});
  expect_close(prims_sum(ones, Ints{}, std::nullopt), {6});
  // prims.sum(torch.tensor([1, 2], dtype=torch.int32), [0]) -> int64 3
  EXPECT_EQ(elements<int64_t>(prims_sum(Tensor::from<int32_t>({1, 2}), Ints{0}, std::nullopt)),
            (Ints{3}));
  // prims.var(torch.tensor([[1.0, 2], [3, 5]]), [1], correction=0) -> [0.25, 1]
  expect_close(prims_var(f32({1, 2, 3, 5}, {2, 2}), Ints{1}, 0, std::nullopt), {0.25f, 1});
}

TEST(TorchlibPrims, CastsAndShapes) {
  expect_close(prims_convert_element_type(i64({1, 2}), 6), {1, 2});
  EXPECT_EQ(dims(prims_squeeze(f32({1, 2}, {1, 2, 1}), {0, 2})), (Ints{2}));
  const Registry& r = torchlib_registry();
  const Value t = r.get_op_functions("prims::transpose")[0](
      {Value(f32({1, 2, 3, 4, 5, 6}, {2, 3})), Ints{1, 0}})[0];
  EXPECT_EQ(dims(t), (Ints{3, 2}));
  expect_close(prims_where(Tensor::from<bool>({true, false}), f32({1, 2}), f32({3, 4})), {1, 4});
  for (const char* name : {"prims::abs", "prims::add", "prims::ge", "prims::reshape",
                           "prims::device_put", "prims::tanh"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
}

}  // namespace
}  // namespace onnxscript::torch_lib
