// torchlib's binary family against PyTorch 1.13: expected values printed by
// torch at test-writing time (the expression is in the comment above each).
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

TEST(TorchlibBinary, RemainderTakesTheDivisorsSignAndFmodTheDividends) {
  // a = torch.tensor([7, -7, 7, -7]); b = torch.tensor([3, 3, -3, -3])
  const Tensor a = i64({7, -7, 7, -7}), b = i64({3, 3, -3, -3});
  // torch.remainder(a, b) -> [1, 2, -2, -1]; torch.fmod(a, b) -> [1, -1, 1, -1]
  EXPECT_EQ(elements<int64_t>(aten_remainder(a, b)), (std::vector<int64_t>{1, 2, -2, -1}));
  EXPECT_EQ(elements<int64_t>(aten_fmod(a, b)), (std::vector<int64_t>{1, -1, 1, -1}));
  // The same with 5.5 and 2.0: remainder [1.5, 0.5, -0.5, -1.5], fmod [1.5, -1.5, 1.5, -1.5]
  const Tensor af = f32({5.5f, -5.5f, 5.5f, -5.5f}), bf = f32({2, 2, -2, -2});
  expect_close(aten_remainder(af, bf), {1.5f, 0.5f, -0.5f, -1.5f});
  expect_close(aten_fmod(af, bf), {1.5f, -1.5f, 1.5f, -1.5f});
  // torch.remainder(5, torch.tensor([3, -3])) -> [2, -1]
  EXPECT_EQ(elements<int64_t>(aten_remainder(Value(int64_t{5}), i64({3, -3}))),
            (std::vector<int64_t>{2, -1}));
}

TEST(TorchlibBinary, PowPromotesAsPyTorchDoes) {
  // torch.pow(torch.tensor([1, 2, 3]), 0.5) -> float32 [1, 1.4142135, 1.7320508]
  expect_close(aten_pow(i64({1, 2, 3}), Value(0.5)), {1, 1.4142135381698608f, 1.7320507764816284f});
  // torch.pow(torch.tensor([1, 2, 3]), 2) -> int64 [1, 4, 9]
  EXPECT_EQ(elements<int64_t>(aten_pow(i64({1, 2, 3}), Value(int64_t{2}))),
            (std::vector<int64_t>{1, 4, 9}));
  // torch.pow(2, torch.tensor([0, 1, 3])) -> int64 [1, 2, 8]
  EXPECT_EQ(elements<int64_t>(aten_pow(Value(int64_t{2}), i64({0, 1, 3}))),
            (std::vector<int64_t>{1, 2, 8}));
  // torch.pow(2.5, torch.tensor([0, 1, 2])) -> float32 [1, 2.5, 6.25]
  expect_close(aten_pow(Value(2.5), i64({0, 1, 2})), {1, 2.5f, 6.25f});
  // torch.pow(torch.tensor([2.0, 3.0]), torch.tensor([3, 2])) -> float32 [8, 9]
  expect_close(aten_pow(f32({2, 3}), i64({3, 2})), {8, 9});
}

TEST(TorchlibBinary, Atan2CoversEveryQuadrant) {
  // torch.atan2(torch.tensor([1., 1, -1, -1, 0, 1, -1, 0]),
  //             torch.tensor([1., -1, -1, 1, 1, 0, 0, -1]))
  expect_close(aten_atan2(f32({1, 1, -1, -1, 0, 1, -1, 0}), f32({1, -1, -1, 1, 1, 0, 0, -1})),
               {0.7853981852531433f, 2.356194496154785f, -2.356194496154785f, -0.7853981852531433f,
                0, 1.5707963705062866f, -1.5707963705062866f, 3.1415927410125732f});
}

TEST(TorchlibBinary, LogaddexpDoesNotOverflow) {
  // torch.logaddexp(torch.tensor([0., 1000, -2]), torch.tensor([0., 1000, 3]))
  expect_close(aten_logaddexp(f32({0, 1000, -2}), f32({0, 1000, 3})),
               {0.6931471824645996f, 1000.6931762695312f, 3.0067152976989746f});
}

TEST(TorchlibBinary, MaximumAndComparisonsPromote) {
  // torch.maximum(torch.tensor([1, 5]), torch.tensor([2.5, 3.0])) -> float32 [2.5, 5]
  expect_close(aten_maximum(i64({1, 5}), f32({2.5f, 3})), {2.5f, 5});
  expect_close(aten_minimum(i64({1, 5}), f32({2.5f, 3})), {1, 3});
  // torch.eq(torch.tensor([1, 2]), 1.5) -> [False, False] (1.5 is not truncated to 1)
  EXPECT_EQ(elements<bool>(aten_eq(i64({1, 2}), Value(1.5))), (std::vector<bool>{false, false}));
  // torch.lt(torch.tensor([1, 2, 3]), 2.5) -> [True, True, False]
  EXPECT_EQ(elements<bool>(aten_lt(i64({1, 2, 3}), Value(2.5))),
            (std::vector<bool>{true, true, false}));
  const Tensor x = f32({1, 2, 3}), y = f32({2, 2, 2});
  EXPECT_EQ(elements<bool>(aten_ne(x, y)), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(elements<bool>(aten_le(x, y)), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(elements<bool>(aten_gt(x, y)), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(elements<bool>(aten_ge(x, y)), (std::vector<bool>{false, true, true}));
}

TEST(TorchlibBinary, LogicalAndBitwise) {
  EXPECT_EQ(elements<bool>(aten_logical_and(f32({0, 1, 2}), i64({1, 0, 3}))),
            (std::vector<bool>{false, false, true}));
  EXPECT_EQ(elements<bool>(aten_logical_or(f32({0, 1, 0}), i64({0, 0, 3}))),
            (std::vector<bool>{false, true, true}));
  EXPECT_EQ(elements<bool>(aten_logical_xor(f32({0, 1, 2}), i64({1, 0, 3}))),
            (std::vector<bool>{true, true, false}));
  // torch.bitwise_and(torch.tensor([12, 10]), torch.tensor([10, 6])) -> [8, 2]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_and(i64({12, 10}), i64({10, 6}))),
            (std::vector<int64_t>{8, 2}));
  // torch.bitwise_or(torch.tensor([12, 10]), 3) -> [15, 11]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_or(i64({12, 10}), Value(int64_t{3}))),
            (std::vector<int64_t>{15, 11}));
  // torch.bitwise_xor(torch.tensor([12, 10]), torch.tensor([10, 6])) -> [6, 12]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_xor(i64({12, 10}), i64({10, 6}))),
            (std::vector<int64_t>{6, 12}));
  EXPECT_EQ(elements<bool>(aten_bitwise_and(b8({true, true}), b8({true, false}))),
            (std::vector<bool>{true, false}));
  EXPECT_THROW(aten_bitwise_and(f32({1}), f32({1})), TypeError);
}

TEST(TorchlibBinary, WhereClampAndMaskedFill) {
  const Tensor c = b8({true, false});
  // torch.where(c, 1.0, 0.0) -> float32 [1, 0]
  expect_close(aten_where(c, Value(1.0), Value(0.0)), {1, 0});
  // torch.where(c, torch.tensor([1, 2]), 2.5) -> float32 [1, 2.5]
  expect_close(aten_where(c, i64({1, 2}), Value(2.5)), {1, 2.5f});
  const Tensor x = f32({-2, 0.5f, 3});
  // torch.clamp(x, min=-1, max=1) -> [-1, 0.5, 1]
  expect_close(aten_clamp(x, Value(int64_t{-1}), Value(int64_t{1})), {-1, 0.5f, 1});
  // torch.clamp(x, min=torch.tensor([0., 1, -5]), max=torch.tensor([1.])) -> [0, 1, 1]
  expect_close(aten_clamp(x, Value(f32({0, 1, -5})), Value(f32({1}))), {0, 1, 1});
  // torch.clamp(x, min=2, max=1) -> [1, 1, 1]: max wins
  expect_close(aten_clamp(x, Value(int64_t{2}), Value(int64_t{1})), {1, 1, 1});
  expect_close(aten_clamp_min(x, Value(0.0)), {0, 0.5f, 3});
  expect_close(aten_clamp_max(x, Value(0.0)), {-2, 0, 0});
  EXPECT_THROW(aten_clamp(x, std::nullopt, std::nullopt), TypeError);
  // torch.tensor([1., 2, 3]).masked_fill(torch.tensor([True, False, True]), -1) -> [-1, 2, -1]
  expect_close(aten_masked_fill(f32({1, 2, 3}), b8({true, false, true}), Value(int64_t{-1})),
               {-1, 2, -1});
  expect_close(
      aten_masked_fill(f32({1, 2, 3}), b8({true, false, true}), Value(Tensor::scalar<double>(7))),
      {7, 2, 7});
}

TEST(TorchlibBinary, LerpAddcmulAddcdiv) {
  // torch.lerp(torch.tensor([0., 10]), torch.tensor([10., 20]), 0.25) -> [2.5, 12.5]
  expect_close(aten_lerp(f32({0, 10}), f32({10, 20}), Value(0.25)), {2.5f, 12.5f});
  // torch.addcmul(torch.tensor([1., 1]), torch.tensor([2., 3]), torch.tensor([4., 5]),
  //               value=0.5) -> [5, 8.5]
  expect_close(aten_addcmul(f32({1, 1}), f32({2, 3}), f32({4, 5}), Value(0.5)), {5, 8.5f});
  // torch.addcdiv(... value=2) -> [2, 2.2]
  expect_close(aten_addcdiv(f32({1, 1}), f32({2, 3}), f32({4, 5}), Value(int64_t{2})),
               {2, 2.200000047683716f});
}

TEST(TorchlibBinary, MatrixProducts) {
  const Tensor m = f32({1, 2, 3, 4}, {2, 2}), n = f32({5, 6, 7, 8}, {2, 2});
  // torch.addmm(torch.tensor([1., -1]), M, N, beta=2, alpha=0.5) -> [[11.5, 9], [23.5, 23]]
  expect_close(aten_addmm(f32({1, -1}), m, n, Value(int64_t{2}), Value(0.5)),
               {11.5f, 9, 23.5f, 23});
  // beta=0 ignores a NaN in self: [[19, 22], [43, 50]]
  const float nan = std::numeric_limits<float>::quiet_NaN();
  expect_close(aten_addmm(f32({nan, 1}), m, n, Value(int64_t{0}), Value(int64_t{1})),
               {19, 22, 43, 50});
  // torch.baddbmm(torch.zeros(1, 2, 2), M[None], N[None], alpha=2) -> [[[38, 44], [86, 100]]]
  const Value b = aten_baddbmm(f32({0, 0, 0, 0}, {1, 2, 2}), f32({1, 2, 3, 4}, {1, 2, 2}),
                               f32({5, 6, 7, 8}, {1, 2, 2}), Value(int64_t{1}), Value(int64_t{2}));
  expect_close(b, {38, 44, 86, 100});
  EXPECT_EQ(dims(b), (std::vector<int64_t>{1, 2, 2}));
  expect_close(aten_mm(m, n), {19, 22, 43, 50});
  // torch.dot(torch.tensor([1., 2, 3]), torch.tensor([4., 5, 6])) -> 32 (0-D)
  const Value d = aten_dot(f32({1, 2, 3}), f32({4, 5, 6}));
  expect_close(d, {32});
  EXPECT_TRUE(dims(d).empty());
  // torch.mv(M, torch.tensor([1., -1])) -> [-1, -1]
  expect_close(aten_mv(m, f32({1, -1})), {-1, -1});
  // torch.outer(torch.tensor([1., 2]), torch.tensor([3., 4, 5])) -> [[3, 4, 5], [6, 8, 10]]
  const Value o = aten_outer(f32({1, 2}), f32({3, 4, 5}));
  expect_close(o, {3, 4, 5, 6, 8, 10});
  EXPECT_EQ(dims(o), (std::vector<int64_t>{2, 3}));
  EXPECT_THROW(aten_mm(f32({1, 2}), n), TypeError);
  EXPECT_THROW(aten_dot(m, f32({1, 2})), TypeError);
}

TEST(TorchlibBinary, AliasesAreRegistered) {
  const Registry& r = torchlib_registry();
  for (const char* name :
       {"aten::divide.Tensor", "aten::true_divide.Scalar", "aten::subtract.Tensor",
        "aten::multiply.Tensor", "aten::greater.Tensor", "aten::less_equal.Tensor",
        "aten::div.Scalar_mode", "aten::where.self", "aten::clamp_min.Tensor", "aten::pow.Scalar",
        "aten::bitwise_and.Scalar_Tensor"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
  // aten::subtract.Tensor with the default alpha: 5 - 2.
  const std::vector<Value> y =
      r.get_op_functions("aten::subtract.Tensor")[0]({Value(f32({5})), Value(f32({2}))});
  expect_close(y[0], {3});
}

TEST(TorchlibBinary, XlogyLogaddexp2Heaviside) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // torch.xlogy(torch.tensor([0.0, 2, 3, 0]), torch.tensor([0.0, 3, nan, nan]))
  //   -> [0, 2.1972246, nan, nan]
  expect_close(aten_xlogy(f32({0, 2, 3, 0}), f32({0, 3, nan, nan})), {0, 2.1972246f, nan, nan});
  // torch.xlogy(2, torch.tensor([1.0, 4.0])) -> [0, 2.7725887]
  expect_close(aten_xlogy(Value(int64_t{2}), f32({1, 4})), {0, 2.7725887f});
  // torch.logaddexp2(torch.tensor([0., 1000, -2]), torch.tensor([0., 1000, 3])) -> [1,
  // 1001, 3.044394]
  expect_close(aten_logaddexp2(f32({0, 1000, -2}), f32({0, 1000, 3})), {1, 1001, 3.044394f});
  // torch.heaviside(torch.tensor([-1.5, 0, 2]), torch.tensor([0.5])) -> [0, 0.5, 1]
  expect_close(aten_heaviside(f32({-1.5f, 0, 2}), f32({0.5f})), {0, 0.5f, 1});
}

TEST(TorchlibBinary, IscloseAllcloseEqual) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // torch.isclose(torch.tensor([1., 1, inf, inf, nan, 1]),
  //               torch.tensor([1 + 1e-6, 1.1, inf, -inf, nan, inf]))
  //   -> [True, False, True, False, False, False]
  EXPECT_EQ(
      elements<bool>(aten_isclose(f32({1, 1, inf, inf, nan, 1}),
                                  f32({1 + 1e-6f, 1.1f, inf, -inf, nan, inf}), 1e-5, 1e-8, false)),
      (std::vector<bool>{true, false, true, false, false, false}));
  EXPECT_EQ(elements<bool>(aten_isclose(f32({nan}), f32({nan}), 1e-5, 1e-8, true)),
            (std::vector<bool>{true}));
  // torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0000001])) -> True
  EXPECT_EQ(elements<bool>(aten_allclose(f32({1, 2}), f32({1, 2.0000001f}), 1e-5, 1e-8, false)),
            (std::vector<bool>{true}));
  EXPECT_EQ(elements<bool>(aten_allclose(f32({1, 2}), f32({1, 2.1f}), 1e-5, 1e-8, false)),
            (std::vector<bool>{false}));
  // torch.equal([1, 2], [1, 2]) -> True; torch.equal([[1, 2]], [[1, 3]]) -> False
  EXPECT_EQ(elements<bool>(aten_equal(i64({1, 2}), i64({1, 2}))), (std::vector<bool>{true}));
  EXPECT_EQ(elements<bool>(aten_equal(i64({1, 2}, {1, 2}), i64({1, 3}, {1, 2}))),
            (std::vector<bool>{false}));
  EXPECT_EQ(elements<bool>(aten_equal(i64({1, 2}), i64({1, 2}, {1, 2}))),
            (std::vector<bool>{false}));
}

TEST(TorchlibBinary, AddmvAddrAddbmm) {
  const Tensor m = f32({1, 2, 3, 4}, {2, 2});
  // torch.addmv(torch.tensor([1., 1]), M, torch.tensor([1., -1]), beta=2, alpha=3) -> [-1, -1]
  expect_close(aten_addmv(f32({1, 1}), m, f32({1, -1}), Value(int64_t{2}), Value(int64_t{3})),
               {-1, -1});
  // torch.addr(torch.zeros(2, 2), torch.tensor([1., 2]), torch.tensor([3., 4]), alpha=2)
  //   -> [[6, 8], [12, 16]]
  expect_close(aten_addr(f32({0, 0, 0, 0}, {2, 2}), f32({1, 2}), f32({3, 4}), Value(int64_t{1}),
                         Value(int64_t{2})),
               {6, 8, 12, 16});
  // torch.addbmm(torch.ones(2, 2), torch.stack([M, M]), torch.stack([M, M]))
  //   -> [[15, 21], [31, 45]]
  const Tensor mm = f32({1, 2, 3, 4, 1, 2, 3, 4}, {2, 2, 2});
  expect_close(aten_addbmm(f32({1, 1, 1, 1}, {2, 2}), mm, mm, Value(int64_t{1}), Value(int64_t{1})),
               {15, 21, 31, 45});
}

TEST(TorchlibBinary, ShiftsOfSignedIntegers) {
  // torch.bitwise_left_shift(torch.tensor([1, -3, 5]), 2) -> [4, -12, 20]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_left_shift(i64({1, -3, 5}), Value(int64_t{2}))),
            (std::vector<int64_t>{4, -12, 20}));
  // torch.bitwise_right_shift(torch.tensor([8, -7, 5]), torch.tensor([1, 1, 0])) -> [4, -4, 5]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_right_shift(i64({8, -7, 5}), i64({1, 1, 0}))),
            (std::vector<int64_t>{4, -4, 5}));
  // torch.bitwise_right_shift(16, torch.tensor([1, 3])) -> [8, 2]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_right_shift(Value(int64_t{16}), i64({1, 3}))),
            (std::vector<int64_t>{8, 2}));
  EXPECT_THROW(aten_bitwise_left_shift(f32({1}), Value(int64_t{1})), TypeError);
  EXPECT_THROW(aten_bitwise_left_shift(i64({1}), Value(int64_t{64})), TypeError);
}

}  // namespace
}  // namespace onnxscript::torch_lib
