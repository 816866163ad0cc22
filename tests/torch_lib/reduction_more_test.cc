// torchlib's further reductions against PyTorch 1.13: expected values
// printed by torch at test-writing time (the expression is in the comment
// above each; m is the tensor below).
#include <gtest/gtest.h>

#include <limits>

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

// m = torch.tensor([[1.0, 5, 3], [4, 2, 6]])
Tensor sample() { return f32({1, 5, 3, 4, 2, 6}, {2, 3}); }

TEST(TorchlibReductionsMore, SumAndProd) {
  // torch.sum(m) -> 21 (0-D)
  const Value all = aten_sum(sample(), std::nullopt);
  expect_close(all, {21});
  EXPECT_TRUE(dims(all).empty());
  // torch.sum(m, dim=[-1]) -> [9, 12]; torch.sum(m, dim=0, keepdim=True) -> [[5, 7, 9]]
  expect_close(aten_sum_dim(sample(), Ints{-1}, false, std::nullopt), {9, 12});
  const Value kept = aten_sum_dim(sample(), Ints{0}, true, std::nullopt);
  expect_close(kept, {5, 7, 9});
  EXPECT_EQ(dims(kept), (Ints{1, 3}));
  expect_close(aten_sum_dim(sample(), Ints{}, false, std::nullopt), {21});
  // torch.sum(torch.tensor([1, 2], dtype=torch.int32)) -> int64 3; of bools -> int64 2
  EXPECT_EQ(elements<int64_t>(aten_sum(Tensor::from<int32_t>({1, 2}), std::nullopt)), (Ints{3}));
  EXPECT_EQ(elements<int64_t>(aten_sum(b8({true, true, false}), std::nullopt)), (Ints{2}));
  // dtype 7 (float64)
  EXPECT_EQ(aten_sum(sample(), 7).tensor().dtype(), DataType::kDouble);
  // torch.prod(m) -> 720; torch.prod(m, 1) -> [15, 48]
  expect_close(aten_prod(sample(), std::nullopt), {720});
  expect_close(aten_prod_dim(sample(), 1, false, std::nullopt), {15, 48});
}

TEST(TorchlibReductionsMore, MaxMinAndTheirIndices) {
  // torch.amax(m, dim=0) -> [4, 5, 6]; torch.amin(m, dim=[0, 1]) -> 1
  expect_close(aten_amax(sample(), {0}, false), {4, 5, 6});
  expect_close(aten_amin(sample(), {0, 1}, false), {1});
  expect_close(aten_amax(sample(), {}, false), {6});
  expect_close(aten_max(sample()), {6});
  expect_close(aten_min(sample()), {1});
  // torch.max(m, 1) -> values [5, 6], indices [1, 2]
  const std::vector<Value> mx = aten_max_dim(sample(), 1, false);
  expect_close(mx[0], {5, 6});
  EXPECT_EQ(elements<int64_t>(mx[1]), (Ints{1, 2}));
  // torch.min(m, 0, keepdim=True) -> values [[1, 2, 3]], indices [[0, 1, 0]]
  const std::vector<Value> mn = aten_min_dim(sample(), 0, true);
  expect_close(mn[0], {1, 2, 3});
  EXPECT_EQ(elements<int64_t>(mn[1]), (Ints{0, 1, 0}));
  EXPECT_EQ(dims(mn[1]), (Ints{1, 3}));
  // torch.argmax(m) -> 5 (0-D); keepdim=True -> [[5]]; torch.argmin(m, dim=1) -> [0, 1]
  const Value am = aten_argmax(sample(), std::nullopt, false);
  EXPECT_EQ(elements<int64_t>(am), (Ints{5}));
  EXPECT_TRUE(dims(am).empty());
  EXPECT_EQ(dims(aten_argmax(sample(), std::nullopt, true)), (Ints{1, 1}));
  EXPECT_EQ(elements<int64_t>(aten_argmin(sample(), 1, false)), (Ints{0, 1}));
}

TEST(TorchlibReductionsMore, VarianceAndStandardDeviation) {
  // torch.var(m) -> 3.5; torch.var(m, dim=1, unbiased=False) -> [2.6666667, 2.6666667]
  expect_close(aten_var(sample(), true), {3.5f});
  expect_close(aten_var_dim(sample(), Ints{1}, false, false),
               {2.6666667461395264f, 2.6666667461395264f});
  // torch.std(m) -> 1.8708287; torch.std(m, dim=0, correction=0, keepdim=True) -> [[1.5, 1.5, 1.5]]
  expect_close(aten_std(sample(), true), {1.8708287477493286f});
  const Value s = aten_std_correction(sample(), Ints{0}, 0, true);
  expect_close(s, {1.5f, 1.5f, 1.5f});
  EXPECT_EQ(dims(s), (Ints{1, 3}));
  // The default correction is 1.
  expect_close(aten_var_correction(sample(), std::nullopt, std::nullopt, false), {3.5f});
  EXPECT_THROW(aten_var(i64({1, 2}), true), TypeError);
}

TEST(TorchlibReductionsMore, LogsumexpIsStable) {
  // torch.logsumexp(torch.tensor([[0.0, 1000], [1, 2]]), dim=1) -> [1000, 2.3132617]
  expect_close(aten_logsumexp(f32({0, 1000, 1, 2}, {2, 2}), {1}, false),
               {1000, 2.3132617473602295f});
  const float inf = std::numeric_limits<float>::infinity();
  // torch.logsumexp(torch.tensor([-inf, -inf]), dim=0) -> -inf
  expect_close(aten_logsumexp(f32({-inf, -inf}), {0}, false), {-inf});
  EXPECT_EQ(dims(aten_logsumexp(f32({0, 1000, 1, 2}, {2, 2}), {1}, true)), (Ints{2, 1}));
}

TEST(TorchlibReductionsMore, AllAndAny) {
  // torch.all(torch.tensor([[1, 0], [1, 1]]), dim=1) -> [False, True]
  EXPECT_EQ(elements<bool>(aten_all_dim(i64({1, 0, 1, 1}, {2, 2}), 1, false)),
            (std::vector<bool>{false, true}));
  // torch.any(torch.tensor([[0, 0], [1, 0]]), dim=0) -> [True, False]
  EXPECT_EQ(elements<bool>(aten_any_dim(i64({0, 0, 1, 0}, {2, 2}), 0, false)),
            (std::vector<bool>{true, false}));
  // torch.all(torch.zeros(0)) -> True; torch.any(torch.zeros(0)) -> False
  EXPECT_EQ(elements<bool>(aten_all(Tensor(DataType::kFloat, {0}))), (std::vector<bool>{true}));
  EXPECT_EQ(elements<bool>(aten_any(Tensor(DataType::kFloat, {0}))), (std::vector<bool>{false}));
  EXPECT_EQ(elements<bool>(aten_all(f32({1, 2}))), (std::vector<bool>{true}));
}

TEST(TorchlibReductionsMore, CumsumAndNorm) {
  // torch.cumsum(m, 1) -> [[1, 6, 9], [4, 6, 12]]
  expect_close(aten_cumsum(sample(), 1, std::nullopt), {1, 6, 9, 4, 6, 12});
  // torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0) -> int64 [1, 3, 6]
  EXPECT_EQ(elements<int64_t>(aten_cumsum(Tensor::from<int32_t>({1, 2, 3}), 0, std::nullopt)),
            (Ints{1, 3, 6}));
  // n = torch.tensor([[3.0, -4], [0, 1]])
  const Tensor n = f32({3, -4, 0, 1}, {2, 2});
  // torch.norm(n) -> 5.0990195; torch.norm(n, p=1, dim=1) -> [7, 1]
  expect_close(aten_norm(n, Value(int64_t{2})), {5.099019527435303f});
  expect_close(aten_norm_dim(n, Value(int64_t{1}), {1}, false), {7, 1});
  // torch.norm(n, p=float('inf')) -> 4; torch.norm(n, p=0) -> 3
  expect_close(aten_norm(n, Value(std::numeric_limits<double>::infinity())), {4});
  expect_close(aten_norm(n, Value(int64_t{0})), {3});
  // torch.norm(n, p=3, dim=[0], keepdim=True) -> [[3, 4.0207257]]
  const Value p3 = aten_norm_dim(n, Value(int64_t{3}), {0}, true);
  expect_close(p3, {3, 4.020725727081299f});
  EXPECT_EQ(dims(p3), (Ints{1, 2}));
  EXPECT_THROW(aten_norm_dim(n, Value(f32({2})), {0}, false), TypeError);
}

TEST(TorchlibReductionsMore, RegisteredWithDefaults) {
  const Registry& r = torchlib_registry();
  // aten::amax with its default dim [] reduces everything.
  expect_close(r.get_op_functions("aten::amax")[0]({Value(sample())})[0], {6});
  // aten::max.dim gives two outputs.
  EXPECT_EQ(r.get_op_functions("aten::max.dim")[0]({Value(sample()), int64_t{1}}).size(), 2u);
  for (const char* name : {"aten::sum.dim_IntList", "aten::var.correction", "aten::std.dim",
                           "aten::norm.ScalarOpt_dim", "aten::all.dim", "aten::any",
                           "aten::prod.dim_int", "aten::argmin"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
}

TEST(TorchlibReductionsMore, LogcumsumexpAndVectorNorm) {
  // torch.logcumsumexp(torch.tensor([0.0, 1000, 1]), 0) -> [0, 1000, 1000]
  expect_close(aten_logcumsumexp(f32({0, 1000, 1}), 0), {0, 1000, 1000});
  // torch.logcumsumexp(torch.tensor([[0., 1], [2, 3]]), 0) -> [[0, 1], [2.126928, 3.126928]]
  expect_close(aten_logcumsumexp(f32({0, 1, 2, 3}, {2, 2}), 0),
               {0, 1, 2.1269280910491943f, 3.1269280910491943f});
  // torch.logcumsumexp(torch.tensor([-inf, 0.0]), 0) -> [-inf, 0]
  const float inf = std::numeric_limits<float>::infinity();
  expect_close(aten_logcumsumexp(f32({-inf, 0}), 0), {-inf, 0});
  // torch.linalg.vector_norm(torch.tensor([[3.0, -4], [0, 1]]), ord=1, dim=[1]) -> [7, 1]
  const Tensor n = f32({3, -4, 0, 1}, {2, 2});
  expect_close(aten_linalg_vector_norm(n, Value(int64_t{1}), Ints{1}, false, std::nullopt), {7, 1});
  // The default: the 2-norm of everything, sqrt(26).
  expect_close(aten_linalg_vector_norm(n, Value(int64_t{2}), std::nullopt, false, std::nullopt),
               {5.099019527435303f});
}

}  // namespace
}  // namespace onnxscript::torch_lib
