// torchlib's unary family against PyTorch 1.13: expected values printed by
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

TEST(TorchlibUnary, ExponentialsLogarithmsAndRoots) {
  // p = torch.tensor([0.25, 0.5, 1.0, 2.0, 4.0]); torch.<op>(p)
  const Tensor p = f32({0.25f, 0.5f, 1, 2, 4});
  expect_close(aten_exp(p), {1.2840254306793213f, 1.6487212181091309f, 2.7182817459106445f,
                             7.389056205749512f, 54.59815216064453f});
  expect_close(aten_exp2(p), {1.1892070770263672f, 1.4142135381698608f, 2, 4, 16});
  expect_close(aten_log(p), {-1.3862943649291992f, -0.6931471824645996f, 0, 0.6931471824645996f,
                             1.3862943649291992f});
  expect_close(aten_log2(p), {-2, -1, 0, 1, 2});
  expect_close(aten_log10(p), {-0.6020600199699402f, -0.3010300099849701f, 0, 0.3010300099849701f,
                               0.6020600199699402f});
  expect_close(aten_log1p(p), {0.2231435477733612f, 0.40546509623527527f, 0.6931471824645996f,
                               1.0986123085021973f, 1.6094379425048828f});
  expect_close(aten_expm1(p), {0.2840254306793213f, 0.6487212777137756f, 1.718281865119934f,
                               6.389056205749512f, 53.598148345947266f});
  expect_close(aten_sqrt(p), {0.5f, 0.7071067690849304f, 1, 1.4142135381698608f, 2});
  expect_close(aten_rsqrt(p), {2, 1.4142135381698608f, 1, 0.7071067690849304f, 0.5f});
  expect_close(aten_reciprocal(p), {4, 2, 1, 0.5f, 0.25f});
  expect_close(aten_erfc(p), {0.7236735820770264f, 0.4795001149177551f, 0.15729920566082f,
                              0.004677735269069672f, 1.5417258580896487e-08f});
}

TEST(TorchlibUnary, TrigonometricAndHyperbolic) {
  // u = torch.tensor([-0.9, -0.5, 0.0, 0.5, 0.9]); torch.<op>(u)
  const Tensor u = f32({-0.9f, -0.5f, 0, 0.5f, 0.9f});
  expect_close(aten_sin(u), {-0.7833268642425537f, -0.4794255495071411f, 0, 0.4794255495071411f,
                             0.7833268642425537f});
  expect_close(aten_cos(u), {0.6216099858283997f, 0.8775825500488281f, 1, 0.8775825500488281f,
                             0.6216099858283997f});
  expect_close(aten_tan(u), {-1.2601581811904907f, -0.5463024973869324f, 0, 0.5463024973869324f,
                             1.2601581811904907f});
  expect_close(aten_asin(u), {-1.1197694540023804f, -0.5235987901687622f, 0, 0.5235987901687622f,
                              1.1197694540023804f});
  expect_close(aten_acos(u), {2.690565824508667f, 2.094395160675049f, 1.5707963705062866f,
                              1.0471975803375244f, 0.4510268568992615f});
  expect_close(aten_atan(u), {-0.7328150868415833f, -0.46364760398864746f, 0, 0.46364760398864746f,
                              0.7328150868415833f});
  expect_close(aten_sinh(u), {-1.0265166759490967f, -0.5210952758789062f, 0, 0.5210952758789062f,
                              1.0265166759490967f});
  expect_close(aten_cosh(u), {1.4330863952636719f, 1.1276259422302246f, 1, 1.1276259422302246f,
                              1.4330863952636719f});
  expect_close(aten_tanh(u), {-0.7162978649139404f, -0.46211716532707214f, 0, 0.46211716532707214f,
                              0.7162978649139404f});
  expect_close(aten_asinh(u), {-0.8088668584823608f, -0.4812118411064148f, 0, 0.4812118411064148f,
                               0.8088668584823608f});
  expect_close(aten_atanh(u), {-1.4722193479537964f, -0.5493061542510986f, 0, 0.5493061542510986f,
                               1.4722193479537964f});
  expect_close(aten_sigmoid(u), {0.28905048966407776f, 0.3775406777858734f, 0.5f,
                                 0.622459352016449f, 0.7109494805335999f});
  expect_close(aten_erf(u), {-0.7969081997871399f, -0.5204998850822449f, 0, 0.5204998850822449f,
                             0.7969081997871399f});
  expect_close(aten_sinc(u), {0.1092924177646637f, 0.6366197466850281f, 1, 0.6366197466850281f,
                              0.1092924177646637f});
  expect_close(aten_rad2deg(u), {-51.566200256347656f, -28.647890090942383f, 0, 28.647890090942383f,
                                 51.566200256347656f});
  expect_close(aten_deg2rad(u), {-0.015707962214946747f, -0.008726646192371845f, 0,
                                 0.008726646192371845f, 0.015707962214946747f});
  // torch.acosh(torch.tensor([1.0, 2.0, 10.0]))
  expect_close(aten_acosh(f32({1, 2, 10})), {0, 1.316957950592041f, 2.993222951889038f});
}

TEST(TorchlibUnary, RoundingSignAndAbs) {
  // x = torch.tensor([-2.5, -0.5, 0.0, 0.5, 1.5, 2.5]); torch.<op>(x)
  const Tensor x = f32({-2.5f, -0.5f, 0, 0.5f, 1.5f, 2.5f});
  expect_close(aten_floor(x), {-3, -1, 0, 0, 1, 2});
  expect_close(aten_ceil(x), {-2, 0, 0, 1, 2, 3});
  expect_close(aten_round(x), {-2, 0, 0, 0, 2, 2});  // halves to even
  expect_close(aten_trunc(x), {-2, 0, 0, 0, 1, 2});
  expect_close(aten_frac(x), {-0.5f, -0.5f, 0, 0.5f, 0.5f, 0.5f});
  expect_close(aten_sign(x), {-1, -1, 0, 1, 1, 1});
  expect_close(aten_abs(x), {2.5f, 0.5f, 0, 0.5f, 1.5f, 2.5f});
  expect_close(aten_neg(x), {2.5f, 0.5f, 0, -0.5f, -1.5f, -2.5f});
  // torch.round(torch.tensor([1.2345, -2.675, 0.125]), decimals=2)
  expect_close(aten_round_decimals(f32({1.2345f, -2.675f, 0.125f}), 2), {1.23f, -2.68f, 0.12f});
  // Integers are their own floor, ceil, round and trunc, and keep their type.
  const Tensor n = i64({-3, 0, 7});
  EXPECT_EQ(elements<int64_t>(aten_floor(n)), (std::vector<int64_t>{-3, 0, 7}));
  EXPECT_EQ(elements<int64_t>(aten_trunc(n)), (std::vector<int64_t>{-3, 0, 7}));
  EXPECT_EQ(elements<int64_t>(aten_sign(n)), (std::vector<int64_t>{-1, 0, 1}));
}

TEST(TorchlibUnary, IntegerInputsGiveFloat32WherePyTorchDoes) {
  // torch.sqrt(torch.tensor([1, 4, 9])) -> float32 [1, 2, 3]
  expect_close(aten_sqrt(i64({1, 4, 9})), {1, 2, 3});
  // torch.exp(torch.tensor([0])) -> float32 [1]
  expect_close(aten_exp(i64({0})), {1});
  expect_close(aten_sigmoid(b8({true, false})), {0.7310585975646973f, 0.5f});
}

TEST(TorchlibUnary, LogitClampsWithEps) {
  // torch.logit(torch.tensor([0.0, 0.25, 0.5, 1.0]), eps=0.1)
  expect_close(aten_logit(f32({0, 0.25f, 0.5f, 1}), 0.1),
               {-2.1972246170043945f, -1.0986123085021973f, 0, 2.1972243785858154f});
  const float inf = std::numeric_limits<float>::infinity();
  // Without eps the ends are -inf and inf.
  expect_close(aten_logit(f32({0, 1}), std::nullopt), {-inf, inf});
}

TEST(TorchlibUnary, BitwiseAndLogicalNot) {
  // torch.bitwise_not(torch.tensor([0, 5, -3])) -> [-1, -6, 2]
  EXPECT_EQ(elements<int64_t>(aten_bitwise_not(i64({0, 5, -3}))),
            (std::vector<int64_t>{-1, -6, 2}));
  EXPECT_EQ(elements<bool>(aten_bitwise_not(b8({true, false}))), (std::vector<bool>{false, true}));
  EXPECT_THROW(aten_bitwise_not(f32({1})), TypeError);
  EXPECT_EQ(elements<bool>(aten_logical_not(f32({0, 2.5f, -1}))),
            (std::vector<bool>{true, false, false}));
}

TEST(TorchlibUnary, NanAndInfinityTests) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = f32({1, inf, -inf, nan});
  // torch.isfinite(torch.tensor([1.0, inf, -inf, nan])) -> [True, False, False, False]
  EXPECT_EQ(elements<bool>(aten_isfinite(x)), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(elements<bool>(aten_isnan(x)), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(elements<bool>(aten_isinf(x)), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(elements<bool>(aten_isposinf(x)), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(elements<bool>(aten_isneginf(x)), (std::vector<bool>{false, false, true, false}));
  // Integers hold neither NaN nor infinity.
  const Value ints = aten_isnan(i64({1, 2}));
  EXPECT_EQ(elements<bool>(ints), (std::vector<bool>{false, false}));
  EXPECT_EQ(elements<bool>(aten_isfinite(i64({1, 2}))), (std::vector<bool>{true, true}));
  // torch.signbit(torch.tensor([-1.0, -0.0, 0.0, 2.0])) -> [True, True, False, False]
  EXPECT_EQ(elements<bool>(aten_signbit(f32({-1, -0.0f, 0, 2}))),
            (std::vector<bool>{true, true, false, false}));
}

TEST(TorchlibUnary, RegisteredWithInPlaceForms) {
  const Registry& r = torchlib_registry();
  for (const char* name :
       {"aten::sigmoid", "aten::sigmoid_", "aten::tanh_", "aten::abs", "aten::round.decimals",
        "aten::isnan", "aten::special_erf", "aten::logit"}) {
    EXPECT_TRUE(r.is_registered_op(name)) << name;
  }
  // Called by name: the schema fills no defaults here, the function runs.
  const std::vector<Value> y = r.get_op_functions("aten::tanh_")[0]({Value(f32({0}))});
  expect_close(y[0], {0});
}

TEST(TorchlibUnary, AngleConjAndScalars) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // torch.angle(torch.tensor([-2.0, 0, 3, nan])) -> [pi, 0, 0, nan]
  expect_close(aten_angle(f32({-2, 0, 3, nan})), {3.1415927f, 0, 0, nan});
  expect_close(aten_conj(f32({1, -2})), {1, -2});
  EXPECT_THROW(aten_conj(Tensor(DataType::kComplex64, {1})), TypeError);
  // torch.tensor([0.0]).is_nonzero() -> False; torch.tensor([[3]]).is_nonzero() -> True
  EXPECT_EQ(elements<bool>(aten_is_nonzero(f32({0}))), (std::vector<bool>{false}));
  const Value nz = aten_is_nonzero(i64({3}, {1, 1}));
  EXPECT_EQ(elements<bool>(nz), (std::vector<bool>{true}));
  EXPECT_TRUE(dims(nz).empty());
  EXPECT_TRUE(dims(aten_local_scalar_dense(f32({2.5f}, {1}))).empty());
}

}  // namespace
}  // namespace onnxscript::torch_lib
