// Elementwise unary operators: abs, neg, the exponentials and logarithms,
// roots, trigonometric and hyperbolic functions, sigmoid, sign, rounding,
// reciprocal, erf, bitwise and logical not, and the NaN / infinity tests.
// PyTorch computes the transcendental ones in floating point: an integer
// tensor gives float32 (the default dtype), so it is cast first.

#include <cmath>
#include <numbers>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// A bool tensor of self's shape, all `value` (the NaN / infinity tests of
// an integer tensor, which holds neither).
Value all_of_shape(const Value& self, bool value) {
  return op::ConstantOfShape(op::Shape(self), {.value = Tensor::from<bool>({value}, {1})});
}

// self for IsInf, which takes float and double only in opset 18: float16
// (whose infinities and finite values float32 holds exactly) as float32.
Value for_is_inf(const Value& self) {
  if (self.dtype() == DataType::kFloat16) return op::Cast(self, {.to = DataType::kFloat});
  return self;
}

}  // namespace

Value aten_abs(Value self) { return op::Abs(self); }
Value aten_neg(Value self) { return op::Neg(self); }
Value aten_exp(Value self) { return op::Exp(floating_or_float32(self)); }
Value aten_exp2(Value self) {
  // Pow's result takes the base's type: a base of x's type keeps double and
  // float16 (a bare 2.0 would be float32).
  const Value x = floating_or_float32(self);
  return op::Pow(op::CastLike(Value(Tensor::scalar<float>(2)), x), x);
}
Value aten_log(Value self) { return op::Log(floating_or_float32(self)); }
Value aten_log2(Value self) {
  return op::Div(op::Log(floating_or_float32(self)), std::numbers::ln2);
}
Value aten_log10(Value self) {
  return op::Div(op::Log(floating_or_float32(self)), std::numbers::ln10);
}
Value aten_log1p(Value self) { return op::Log(op::Add(floating_or_float32(self), 1.0)); }
Value aten_expm1(Value self) { return op::Sub(op::Exp(floating_or_float32(self)), 1.0); }
Value aten_sqrt(Value self) { return op::Sqrt(floating_or_float32(self)); }
Value aten_rsqrt(Value self) { return op::Reciprocal(op::Sqrt(floating_or_float32(self))); }
Value aten_sin(Value self) { return op::Sin(floating_or_float32(self)); }
Value aten_cos(Value self) { return op::Cos(floating_or_float32(self)); }
Value aten_tan(Value self) { return op::Tan(floating_or_float32(self)); }
Value aten_asin(Value self) { return op::Asin(floating_or_float32(self)); }
Value aten_acos(Value self) { return op::Acos(floating_or_float32(self)); }
Value aten_atan(Value self) { return op::Atan(floating_or_float32(self)); }
Value aten_sinh(Value self) { return op::Sinh(floating_or_float32(self)); }
Value aten_cosh(Value self) { return op::Cosh(floating_or_float32(self)); }
Value aten_tanh(Value self) { return op::Tanh(floating_or_float32(self)); }
Value aten_asinh(Value self) { return op::Asinh(floating_or_float32(self)); }
Value aten_acosh(Value self) { return op::Acosh(floating_or_float32(self)); }
Value aten_atanh(Value self) { return op::Atanh(floating_or_float32(self)); }
Value aten_sigmoid(Value self) { return op::Sigmoid(floating_or_float32(self)); }
Value aten_erf(Value self) { return op::Erf(floating_or_float32(self)); }
Value aten_erfc(Value self) { return op::Sub(1.0, op::Erf(floating_or_float32(self))); }

Value aten_special_erfcx(Value self) {
  // exp(x^2) erfc(x). Below a threshold, as written: erfc(x) is not small
  // there, so 1 - erf(x) keeps its precision. Above it, where 1 - erf(x)
  // cancels (and exp(x^2) overflows), Laplace's continued fraction
  // erfcx(x) = 1 / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))),
  // 30 levels deep: within 2e-7 (float) from 1.5 and 2e-14 (double) from 2.5.
  const Value x = floating_or_float32(self);
  const bool is_double = x.dtype() == DataType::kDouble;
  const double threshold = is_double ? 2.5 : 1.5;
  // float16 computes as float32.
  const Value xf = x.dtype() == DataType::kFloat16 || x.dtype() == DataType::kBfloat16
                       ? op::Cast(x, {.to = DataType::kFloat})
                       : x;
  // Constants in xf's type (a literal would pass through float32 first).
  auto constant = [&](double v) {
    return xf.dtype() ? scalar_of(*xf.dtype(), v) : op::CastLike(Value(v), xf);
  };
  const Value direct = op::Mul(op::Exp(op::Mul(xf, xf)), op::Sub(constant(1), op::Erf(xf)));
  Value tail = constant(0);
  for (int k = 30; k >= 1; --k) tail = op::Div(constant(k / 2.0), op::Add(xf, tail));
  const Value fraction = op::Div(constant(1.0 / std::sqrt(std::numbers::pi)), op::Add(xf, tail));
  const Value result = op::Where(op::Less(xf, constant(threshold)), direct, fraction);
  return xf.dtype() == x.dtype() ? result : op::CastLike(result, x);
}
Value aten_reciprocal(Value self) { return op::Reciprocal(floating_or_float32(self)); }

Value aten_sign(Value self) {
  // Sign takes no booleans; the sign of a bool is itself.
  if (has_bool_dtype(self)) return op::Identity(self);
  return op::Sign(self);
}

Value aten_floor(Value self) {
  // Integers are their own floor (ONNX's Floor takes floating types only).
  if (has_integral_dtype(self)) return op::Identity(self);
  return op::Floor(self);
}

Value aten_ceil(Value self) {
  if (has_integral_dtype(self)) return op::Identity(self);
  return op::Ceil(self);
}

Value aten_round(Value self) {
  // ONNX's Round rounds halves to even, as torch.round does.
  if (has_integral_dtype(self)) return op::Identity(self);
  return op::Round(self);
}

Value aten_round_decimals(Value self, int64_t decimals) {
  if (has_integral_dtype(self)) return op::Identity(self);
  const double scale = std::pow(10.0, static_cast<double>(decimals));
  return op::Div(op::Round(op::Mul(self, scale)), scale);
}

Value aten_trunc(Value self) {
  if (has_integral_dtype(self)) return op::Identity(self);
  // trunc(x) = sign(x) * floor(|x|).
  return op::Mul(op::Sign(self), op::Floor(op::Abs(self)));
}

Value aten_frac(Value self) { return op::Sub(self, aten_trunc(self)); }

Value aten_bitwise_not(Value self) {
  if (has_bool_dtype(self)) return op::Not(self);
  if (self.dtype() && is_floating(*self.dtype()))
    throw TypeError("aten::bitwise_not: not defined for floating point tensors");
  return op::BitwiseNot(self);
}

Value aten_logical_not(Value self) { return op::Not(op::Cast(self, {.to = DataType::kBool})); }

Value aten_isnan(Value self) {
  if (has_integral_dtype(self)) return all_of_shape(self, false);
  return op::IsNaN(self);
}

Value aten_isinf(Value self) {
  if (has_integral_dtype(self)) return all_of_shape(self, false);
  return op::IsInf(for_is_inf(self));
}

Value aten_isposinf(Value self) {
  if (has_integral_dtype(self)) return all_of_shape(self, false);
  return op::IsInf(for_is_inf(self), {.detect_negative = 0});
}

Value aten_isneginf(Value self) {
  if (has_integral_dtype(self)) return all_of_shape(self, false);
  return op::IsInf(for_is_inf(self), {.detect_positive = 0});
}

Value aten_isfinite(Value self) {
  if (has_integral_dtype(self)) return all_of_shape(self, true);
  return op::Not(op::Or(op::IsNaN(self), op::IsInf(for_is_inf(self))));
}

Value aten_signbit(Value self) {
  if (has_integral_dtype(self)) return op::Less(self, 0);
  // -0.0 has its sign bit set: 1 / -0 is -inf.
  return op::Or(op::Less(self, 0.0),
                op::And(op::Equal(self, 0.0), op::Less(op::Reciprocal(self), 0.0)));
}

Value aten_rad2deg(Value self) {
  return op::Mul(floating_or_float32(self), 180.0 / std::numbers::pi);
}

Value aten_deg2rad(Value self) {
  return op::Mul(floating_or_float32(self), std::numbers::pi / 180.0);
}

Value aten_sinc(Value self) {
  // sin(pi x) / (pi x), and 1 at 0.
  const Value x = floating_or_float32(self);
  const Value px = op::Mul(x, std::numbers::pi);
  const Value is_zero = op::Equal(x, 0.0);
  const Value safe = op::Where(is_zero, op::CastLike(Value(Tensor::scalar<float>(1)), x), px);
  return op::Where(is_zero, op::CastLike(Value(Tensor::scalar<float>(1)), x),
                   op::Div(op::Sin(safe), safe));
}

Value aten_logit(Value self, std::optional<double> eps) {
  Value x = floating_or_float32(self);
  if (eps) x = op::Clip(x, *eps, 1.0 - *eps);
  // log(x / (1 - x)).
  return op::Log(op::Div(x, op::Sub(1.0, x)));
}

namespace {

// Throws for complex tensors, which the real-valued formulas here do not cover.
void require_real(const Value& self, std::string_view aten_op) {
  const std::optional<DataType> t = self.dtype();
  if (t == DataType::kComplex64 || t == DataType::kComplex128)
    throw TypeError(std::string(aten_op) + ": complex tensors are not supported");
}

}  // namespace

Value aten_angle(Value self) {
  require_real(self, "aten::angle");
  // pi for negative numbers, 0 otherwise; NaN stays NaN.
  const Value x = floating_or_float32(self);
  const Value pi = op::CastLike(Value(Tensor::scalar<double>(std::numbers::pi)), x);
  const Value zero = op::CastLike(Value(Tensor::scalar<double>(0)), x);
  return op::Where(op::IsNaN(x), x, op::Where(op::Less(x, 0.0), pi, zero));
}

Value aten_conj(Value self) {
  // The conjugate of a real tensor is itself.
  require_real(self, "aten::conj");
  return op::Identity(self);
}

Value aten_is_nonzero(Value self) {
  // A one-element tensor as a 0-D bool (Reshape fails on more elements, as
  // PyTorch does).
  return op::Not(op::Equal(op::Reshape(self, int64s({})), 0));
}

Value aten_local_scalar_dense(Value self) { return op::Reshape(self, int64s({})); }

void register_unary(Registry& r) {
  using detail::overload;
  // The operator and its in-place form (every one of these has one).
#define ONNXSCRIPT_UNARY(name, fn)                              \
  r.add(overload<fn>("aten::" name "(Tensor self) -> Tensor")); \
  r.add(overload<fn>("aten::" name "_(Tensor(a!) self) -> Tensor(a!)"))
#define ONNXSCRIPT_UNARY_ONLY(name, fn) r.add(overload<fn>("aten::" name "(Tensor self) -> Tensor"))
  ONNXSCRIPT_UNARY("abs", aten_abs);
  ONNXSCRIPT_UNARY("neg", aten_neg);
  ONNXSCRIPT_UNARY("exp", aten_exp);
  ONNXSCRIPT_UNARY("exp2", aten_exp2);
  ONNXSCRIPT_UNARY("log", aten_log);
  ONNXSCRIPT_UNARY("log2", aten_log2);
  ONNXSCRIPT_UNARY("log10", aten_log10);
  ONNXSCRIPT_UNARY("log1p", aten_log1p);
  ONNXSCRIPT_UNARY("expm1", aten_expm1);
  ONNXSCRIPT_UNARY("sqrt", aten_sqrt);
  ONNXSCRIPT_UNARY("rsqrt", aten_rsqrt);
  ONNXSCRIPT_UNARY("sin", aten_sin);
  ONNXSCRIPT_UNARY("cos", aten_cos);
  ONNXSCRIPT_UNARY("tan", aten_tan);
  ONNXSCRIPT_UNARY("asin", aten_asin);
  ONNXSCRIPT_UNARY("acos", aten_acos);
  ONNXSCRIPT_UNARY("atan", aten_atan);
  ONNXSCRIPT_UNARY("sinh", aten_sinh);
  ONNXSCRIPT_UNARY("cosh", aten_cosh);
  ONNXSCRIPT_UNARY("tanh", aten_tanh);
  ONNXSCRIPT_UNARY("asinh", aten_asinh);
  ONNXSCRIPT_UNARY("acosh", aten_acosh);
  ONNXSCRIPT_UNARY("atanh", aten_atanh);
  ONNXSCRIPT_UNARY("sigmoid", aten_sigmoid);
  ONNXSCRIPT_UNARY("erf", aten_erf);
  ONNXSCRIPT_UNARY("erfc", aten_erfc);
  ONNXSCRIPT_UNARY("reciprocal", aten_reciprocal);
  ONNXSCRIPT_UNARY("sign", aten_sign);
  ONNXSCRIPT_UNARY("floor", aten_floor);
  ONNXSCRIPT_UNARY("ceil", aten_ceil);
  ONNXSCRIPT_UNARY("round", aten_round);
  ONNXSCRIPT_UNARY("trunc", aten_trunc);
  ONNXSCRIPT_UNARY("frac", aten_frac);
  ONNXSCRIPT_UNARY("bitwise_not", aten_bitwise_not);
  ONNXSCRIPT_UNARY_ONLY("logical_not", aten_logical_not);
  ONNXSCRIPT_UNARY("rad2deg", aten_rad2deg);
  ONNXSCRIPT_UNARY("deg2rad", aten_deg2rad);
  ONNXSCRIPT_UNARY("sinc", aten_sinc);
  ONNXSCRIPT_UNARY_ONLY("isnan", aten_isnan);
  ONNXSCRIPT_UNARY_ONLY("isinf", aten_isinf);
  ONNXSCRIPT_UNARY_ONLY("isposinf", aten_isposinf);
  ONNXSCRIPT_UNARY_ONLY("isneginf", aten_isneginf);
  ONNXSCRIPT_UNARY_ONLY("isfinite", aten_isfinite);
  ONNXSCRIPT_UNARY_ONLY("signbit", aten_signbit);
  ONNXSCRIPT_UNARY_ONLY("special_erf", aten_erf);
  ONNXSCRIPT_UNARY_ONLY("special_erfc", aten_erfc);
  ONNXSCRIPT_UNARY_ONLY("special_expm1", aten_expm1);
  r.add(overload<aten_special_erfcx>("aten::special_erfcx(Tensor self) -> Tensor"));
#undef ONNXSCRIPT_UNARY
#undef ONNXSCRIPT_UNARY_ONLY
  r.add(overload<aten_round_decimals>(
      "aten::round.decimals(Tensor self, *, int decimals) -> Tensor"));
  r.add(overload<aten_round_decimals>(
      "aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)"));
  r.add(overload<aten_logit>("aten::logit(Tensor self, float? eps=None) -> Tensor"));
  r.add(overload<aten_sinc>("aten::special_sinc(Tensor self) -> Tensor"));
  r.add(overload<aten_angle>("aten::angle(Tensor self) -> Tensor"));
  r.add(overload<aten_conj>("aten::conj(Tensor(a) self) -> Tensor(a)"));
  r.add(overload<aten_is_nonzero>("aten::is_nonzero(Tensor self) -> bool"));
  r.add(overload<aten_local_scalar_dense>("aten::_local_scalar_dense(Tensor self) -> Scalar"));
  // The in-place form keeps self's element type through the registry's
  // in-place rule (bind.h).
  r.add(overload<aten_logical_not>("aten::logical_not_(Tensor(a!) self) -> Tensor(a!)"));
  r.add(overload<aten_logit>("aten::logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)"));
}

}  // namespace onnxscript::torch_lib
