// Elementwise binary operators and the small matrix products: pow,
// remainder, fmod, maximum, minimum, atan2, logaddexp, the comparisons, the
// logical and bitwise operators, where, clamp, masked_fill, lerp, addcmul,
// addcdiv, addmm, baddbmm, mm, dot, mv, outer; and the aliases PyTorch keeps
// for arithmetic (divide, true_divide, subtract, multiply, greater, less...).
// Operands are promoted to PyTorch's common type first (promotion.h): ONNX
// wants one element type where PyTorch computes one.

#include <fmt/format.h>

#include <numbers>

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// A literal made a 0-D tensor of `like`'s element type (for operators whose
// operands are both literals, such as where.Scalar).
Value literal_like_tensor(const Value& literal, DataType type) {
  return scalar_of(type, literal.literal_as_double());
}

// Where for any element type: ONNX Runtime has no bool Where, so booleans
// select as (c and a) or (not c and b). `c` is a bool tensor.
Value select(const Value& c, Value a, Value b) {
  const bool boolean = has_bool_dtype(a) || has_bool_dtype(b);
  if (!boolean) return op::Where(c, a, b);
  auto as_bool = [](Value v) {
    return v.is_literal() ? Value(Tensor::scalar<bool>(v.literal_as_double() != 0)) : v;
  };
  a = as_bool(std::move(a));
  b = as_bool(std::move(b));
  return op::Or(op::And(c, a), op::And(op::Not(c), b));
}

// alpha * v, skipping the multiplication for an alpha of 1.
Value times(const Value& v, const Value& alpha) {
  if (is_known_scalar(alpha, 1.0)) return v;
  return op::Mul(v, alpha);
}

}  // namespace

Value aten_pow(Value self, Value exponent) {
  auto [base, power] = promote(std::move(self), std::move(exponent));
  // Pow's result takes the base's type: a number base (pow.Scalar) becomes
  // a tensor of the exponent's promoted type, not the number's own type.
  if (base.is_literal() && power.is_literal()) base = literal_like_tensor(base, DataType::kFloat);
  if (base.is_literal() && power.dtype()) base = literal_like_tensor(base, *power.dtype());
  // A number exponent of a tensor base takes the base's type (a float32
  // constant would cost a double base its precision).
  if (power.is_literal() && base.dtype()) power = literal_like_tensor(power, *base.dtype());
  return op::Pow(base, power);
}

Value aten_remainder(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  // The remainder takes the divisor's sign: ONNX's Mod with fmod 0 for
  // integers; for floats (where Mod needs fmod 1) a - floor(a / b) * b.
  if (has_integral_dtype(a) || (a.is_literal() && has_integral_dtype(b)))
    return op::Mod(a, b, {.fmod = 0});
  // float16 computes in float32, as PyTorch does: the quotient's rounding
  // to float16 would otherwise cost the result most of its digits.
  const bool half = a.dtype() == DataType::kFloat16 || b.dtype() == DataType::kFloat16;
  if (half) {
    if (!a.is_literal()) a = op::Cast(a, {.to = DataType::kFloat});
    if (!b.is_literal()) b = op::Cast(b, {.to = DataType::kFloat});
  }
  const Value r = op::Sub(a, op::Mul(op::Floor(op::Div(a, b)), b));
  return half ? op::Cast(r, {.to = DataType::kFloat16}) : r;
}

Value aten_fmod(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  // The remainder takes the dividend's sign: C's fmod.
  return op::Mod(a, b, {.fmod = 1});
}

Value aten_maximum(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  // The larger of two booleans is their or (Max takes no bool).
  if (has_bool_dtype(a)) return op::Or(a, b);
  return op::Max(std::vector<Value>{a, b});
}

Value aten_minimum(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_bool_dtype(a)) return op::And(a, b);
  return op::Min(std::vector<Value>{a, b});
}

Value aten_atan2(Value self, Value other) {
  auto [y, x] = promote(floating_or_float32(self), floating_or_float32(other));
  // atan(y / x), moved to the right quadrant: +-pi when x < 0 (by the sign
  // of y), +-pi/2 when x is 0.
  const Value base = op::Atan(op::Div(y, x));
  const Value y_negative = op::Less(y, 0.0);
  // pi as a double tensor first: a double input keeps all its digits.
  const Value pi_like = op::CastLike(scalar_of(DataType::kDouble, std::numbers::pi), y);
  const Value pi = op::Where(y_negative, op::Neg(pi_like), pi_like);
  const Value half_pi = op::Mul(op::Sign(y), op::Div(pi_like, 2.0));
  const Value left = op::Add(base, pi);
  return op::Where(op::Less(x, 0.0), left, op::Where(op::Equal(x, 0.0), half_pi, base));
}

Value aten_logaddexp(Value self, Value other) {
  auto [a, b] = promote(floating_or_float32(self), floating_or_float32(other));
  // max(a, b) + log1p(exp(-|a - b|)), which does not overflow.
  const Value m = op::Max(std::vector<Value>{a, b});
  return op::Add(m, op::Log(op::Add(op::Exp(op::Neg(op::Abs(op::Sub(a, b)))), 1.0)));
}

Value aten_eq(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  return op::Equal(a, b);
}
Value aten_ne(Value self, Value other) { return op::Not(aten_eq(self, other)); }

namespace {

// The operands of an ordering comparison: promoted, and booleans as int32
// (false < true), since Less and its kin take no bool.
std::pair<Value, Value> ordered(Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_bool_dtype(a) && !b.is_literal()) {
    a = op::Cast(a, {.to = DataType::kInt32});
    b = op::Cast(b, {.to = DataType::kInt32});
  }
  return {a, b};
}

}  // namespace

Value aten_lt(Value self, Value other) {
  auto [a, b] = ordered(std::move(self), std::move(other));
  return op::Less(a, b);
}
Value aten_le(Value self, Value other) {
  auto [a, b] = ordered(std::move(self), std::move(other));
  return op::LessOrEqual(a, b);
}
Value aten_gt(Value self, Value other) {
  auto [a, b] = ordered(std::move(self), std::move(other));
  return op::Greater(a, b);
}
Value aten_ge(Value self, Value other) {
  auto [a, b] = ordered(std::move(self), std::move(other));
  return op::GreaterOrEqual(a, b);
}

Value aten_logical_and(Value self, Value other) {
  return op::And(op::Cast(self, {.to = DataType::kBool}), op::Cast(other, {.to = DataType::kBool}));
}
Value aten_logical_or(Value self, Value other) {
  return op::Or(op::Cast(self, {.to = DataType::kBool}), op::Cast(other, {.to = DataType::kBool}));
}
Value aten_logical_xor(Value self, Value other) {
  return op::Xor(op::Cast(self, {.to = DataType::kBool}), op::Cast(other, {.to = DataType::kBool}));
}

namespace {

// Throws for floating operands, which PyTorch's bitwise operators refuse.
void require_integral(const Value& a, const Value& b, std::string_view aten_op) {
  for (const Value* v : {&a, &b}) {
    if ((v->dtype() && is_floating(*v->dtype())) || v->kind() == Value::Kind::kFloatLiteral)
      throw TypeError(std::string(aten_op) + ": not defined for floating point operands");
  }
}

}  // namespace

Value aten_bitwise_and(Value self, Value other) {
  require_integral(self, other, "aten::bitwise_and");
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_bool_dtype(a) || has_bool_dtype(b)) return op::And(a, b);
  return op::BitwiseAnd(a, b);
}
Value aten_bitwise_or(Value self, Value other) {
  require_integral(self, other, "aten::bitwise_or");
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_bool_dtype(a) || has_bool_dtype(b)) return op::Or(a, b);
  return op::BitwiseOr(a, b);
}
Value aten_bitwise_xor(Value self, Value other) {
  require_integral(self, other, "aten::bitwise_xor");
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_bool_dtype(a) || has_bool_dtype(b)) return op::Xor(a, b);
  return op::BitwiseXor(a, b);
}

Value aten_where(Value condition, Value self, Value other) {
  auto [a, b] = promote(std::move(self), std::move(other));
  // Two literals: PyTorch's default type for them (float32, int64 or bool).
  if (a.is_literal() && b.is_literal()) {
    const DataType t = *result_type(a, b);
    a = literal_like_tensor(a, t);
  }
  return select(op::Cast(condition, {.to = DataType::kBool}), a, b);
}

Value aten_clamp(Value self, std::optional<Value> min, std::optional<Value> max) {
  if (!min && !max)
    throw TypeError("aten::clamp: at least one of 'min' and 'max' must not be None");
  // Clip takes 0-D bounds of the input's type; tensor bounds may broadcast,
  // so they go through Max and Min (min first: a max below min wins, as in
  // PyTorch).
  Value x = self;
  if (min) {
    auto [a, b] = promote(x, *min);
    x = b.is_literal() ? op::Clip(a, b, Value()) : op::Max(std::vector<Value>{a, b});
  }
  if (max) {
    auto [a, b] = promote(x, *max);
    x = b.is_literal() ? op::Clip(a, Value(), b) : op::Min(std::vector<Value>{a, b});
  }
  return x;
}

Value aten_clamp_min(Value self, Value min) { return aten_clamp(self, min, std::nullopt); }
Value aten_clamp_max(Value self, Value max) { return aten_clamp(self, std::nullopt, max); }

Value aten_masked_fill(Value self, Value mask, Value value) {
  // The result keeps self's type; a tensor value is cast to it.
  if (!value.is_literal()) value = op::CastLike(value, self);
  return select(op::Cast(mask, {.to = DataType::kBool}), value, self);
}

Value aten_lerp(Value self, Value end, Value weight) {
  // self + weight * (end - self).
  return op::Add(self, op::Mul(weight, op::Sub(end, self)));
}

Value aten_addcmul(Value self, Value tensor1, Value tensor2, Value value) {
  return op::Add(self, times(op::Mul(tensor1, tensor2), value));
}

Value aten_addcdiv(Value self, Value tensor1, Value tensor2, Value value) {
  return op::Add(self, times(op::Div(tensor1, tensor2), value));
}

Value aten_addmm(Value self, Value mat1, Value mat2, Value beta, Value alpha) {
  const Value product = times(op::MatMul(mat1, mat2), alpha);
  // beta 0 ignores self (NaN and infinity included), as PyTorch does.
  if (is_known_scalar(beta, 0.0)) return product;
  return op::Add(times(self, beta), product);
}

Value aten_baddbmm(Value self, Value batch1, Value batch2, Value beta, Value alpha) {
  return aten_addmm(self, batch1, batch2, beta, alpha);
}

Value aten_mm(Value self, Value mat2) {
  if (self.rank() && *self.rank() != 2) throw TypeError("aten::mm: self must be a matrix");
  if (mat2.rank() && *mat2.rank() != 2) throw TypeError("aten::mm: mat2 must be a matrix");
  return op::MatMul(self, mat2);
}

Value aten_dot(Value self, Value tensor) {
  if (self.rank() && *self.rank() != 1) throw TypeError("aten::dot: self must be 1-D");
  if (tensor.rank() && *tensor.rank() != 1) throw TypeError("aten::dot: tensor must be 1-D");
  // MatMul of two vectors is their 0-D inner product.
  return op::MatMul(self, tensor);
}

Value aten_mv(Value self, Value vec) {
  if (self.rank() && *self.rank() != 2) throw TypeError("aten::mv: self must be a matrix");
  if (vec.rank() && *vec.rank() != 1) throw TypeError("aten::mv: vec must be 1-D");
  // vec as a column, then squeezed: ONNX Runtime's MatMul rejects a matrix
  // with no rows times a 1-D vector.
  return op::Squeeze(op::MatMul(self, op::Unsqueeze(vec, int64s({1}))), int64s({1}));
}

Value aten_outer(Value self, Value vec2) {
  auto [a, b] = promote(std::move(self), std::move(vec2));
  // self as a column times vec2 as a row.
  return op::Mul(op::Unsqueeze(a, int64s({1})), b);
}

Value aten_xlogy(Value self, Value other) {
  auto [x, y] = promote(floating_or_float32(self), floating_or_float32(other));
  if (x.is_literal()) x = op::CastLike(scalar_of(DataType::kDouble, x.literal_as_double()), y);
  if (y.is_literal()) y = op::CastLike(scalar_of(DataType::kDouble, y.literal_as_double()), x);
  // x * log(y), 0 where x is 0, NaN where y is NaN.
  const Value zero = op::CastLike(Value(Tensor::scalar<double>(0)), x);
  const Value product = op::Mul(x, op::Log(y));
  return op::Where(op::IsNaN(y), y, op::Where(op::Equal(x, 0.0), zero, product));
}

Value aten_logaddexp2(Value self, Value other) {
  auto [a, b] = promote(floating_or_float32(self), floating_or_float32(other));
  // max(a, b) + log2(1 + 2^-|a - b|).
  const Value m = op::Max(std::vector<Value>{a, b});
  // 2 as a tensor of the operands' type: Pow's result takes the base's.
  const Value two = op::CastLike(scalar_of(DataType::kDouble, 2), a);
  const Value rest = op::Add(op::Pow(two, op::Neg(op::Abs(op::Sub(a, b)))), 1.0);
  return op::Add(
      m, op::Div(op::Log(rest), op::CastLike(scalar_of(DataType::kDouble, std::numbers::ln2), a)));
}

Value aten_heaviside(Value self, Value values) {
  auto [x, v] = promote(std::move(self), std::move(values));
  // values where x is 0, otherwise 1 for positive and 0 for negative x.
  const Value step = op::CastLike(op::Greater(x, 0), x);
  return op::Where(op::Equal(x, 0), v, step);
}

Value aten_isclose(Value self, Value other, double rtol, double atol, bool equal_nan) {
  auto [a, b] = promote(std::move(self), std::move(other));
  if (has_integral_dtype(a)) {
    a = op::Cast(a, {.to = DataType::kDouble});
    b = op::Cast(b, {.to = DataType::kDouble});
  } else if (a.dtype() == DataType::kFloat16) {
    // IsInf takes no float16 in opset 18.
    a = op::Cast(a, {.to = DataType::kFloat});
    b = op::Cast(b, {.to = DataType::kFloat});
  }
  // |a - b| <= atol + rtol * |b| for finite differences; equal values
  // (infinities included) are close; NaNs only with equal_nan.
  const Value diff = op::Abs(op::Sub(a, b));
  const Value tolerance = op::Add(op::Mul(op::Abs(b), rtol), atol);
  Value close =
      op::Or(op::Equal(a, b), op::And(op::Not(op::IsInf(diff)), op::LessOrEqual(diff, tolerance)));
  if (equal_nan) close = op::Or(close, op::And(op::IsNaN(a), op::IsNaN(b)));
  return close;
}

Value aten_allclose(Value self, Value other, double rtol, double atol, bool equal_nan) {
  const Value close = aten_isclose(std::move(self), std::move(other), rtol, atol, equal_nan);
  // All close: no element is not.
  return op::Equal(
      op::ReduceSum(op::Cast(op::Not(close), {.to = DataType::kInt64}), {.keepdims = 0}), 0);
}

Value aten_equal(Value self, Value other) {
  // Same shape and the same elements, as a 0-D bool.
  if (self.rank() && other.rank() && *self.rank() != *other.rank())
    return Value(Tensor::scalar<bool>(false));
  // Shapes that differ in a size known on both sides are not equal (and
  // would not broadcast in the elementwise Equal below).
  const std::optional<ir::Shape> self_shape = self.shape(), other_shape = other.shape();
  for (size_t d = 0; self_shape && other_shape && d < self_shape->size(); ++d) {
    const ir::Dim &x = (*self_shape)[d], &y = (*other_shape)[d];
    if (x.is_static() && y.is_static() && x.value() != y.value())
      return Value(Tensor::scalar<bool>(false));
  }
  auto [a, b] = promote(std::move(self), std::move(other));
  const Value same_shape = op::Equal(
      op::ReduceSum(
          op::Cast(op::Not(op::Equal(op::Shape(a), op::Shape(b))), {.to = DataType::kInt64}),
          {.keepdims = 0}),
      0);
  const Value differing =
      op::ReduceSum(op::Cast(op::Not(op::Equal(a, b)), {.to = DataType::kInt64}), {.keepdims = 0});
  return op::And(same_shape, op::Equal(differing, 0));
}

Value aten_addmv(Value self, Value mat, Value vec, Value beta, Value alpha) {
  const Value product = times(aten_mv(mat, vec), alpha);
  if (is_known_scalar(beta, 0.0)) return product;
  return op::Add(times(self, beta), product);
}

Value aten_addr(Value self, Value vec1, Value vec2, Value beta, Value alpha) {
  const Value product = times(aten_outer(vec1, vec2), alpha);
  if (is_known_scalar(beta, 0.0)) return product;
  return op::Add(times(self, beta), product);
}

Value aten_addbmm(Value self, Value batch1, Value batch2, Value beta, Value alpha) {
  // The batch of products, summed over the batch.
  const Value product =
      times(op::ReduceSum(op::MatMul(batch1, batch2), int64s({0}), {.keepdims = 0}), alpha);
  if (is_known_scalar(beta, 0.0)) return product;
  return op::Add(times(self, beta), product);
}

namespace {

// 2 to the power `shift`, of `like`'s element type: shifts of signed
// integers as multiplications and floor divisions (ONNX's BitShift takes
// unsigned types only).
Value two_to_the(const Value& shift, const Value& like, std::string_view aten_op) {
  for (const Value* v : {&shift, &like}) {
    if ((v->dtype() && is_floating(*v->dtype())) || v->kind() == Value::Kind::kFloatLiteral)
      throw TypeError(std::string(aten_op) + ": not defined for floating point operands");
  }
  if (shift.is_literal()) {
    const int64_t s = shift.literal_as_int();
    if (s < 0 || s > 62) {
      throw TypeError(fmt::format("{}: shift must be in [0, 62], got {}", aten_op, s));
    }
    return op::CastLike(Value(Tensor::scalar<int64_t>(int64_t{1} << s)), like);
  }
  return op::Pow(op::CastLike(Value(Tensor::scalar<int64_t>(2)), like), op::CastLike(shift, like));
}

// A literal `self` of a Scalar_Tensor overload as a tensor of other's type.
Value shift_operand(const Value& self, const Value& other) {
  if (!self.is_literal()) return self;
  return op::CastLike(Value(Tensor::scalar<int64_t>(self.literal_as_int())), other);
}

}  // namespace

Value aten_bitwise_left_shift(Value self, Value other) {
  const Value x = shift_operand(self, other);
  return op::Mul(x, two_to_the(other, x, "aten::bitwise_left_shift"));
}

Value aten_bitwise_right_shift(Value self, Value other) {
  // An arithmetic shift: division rounded toward negative infinity.
  const Value x = shift_operand(self, other);
  return aten_floor_divide(x, two_to_the(other, x, "aten::bitwise_right_shift"));
}

void register_binary(Registry& r) {
  using detail::overload;
  r.add(overload<aten_pow>("aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor"));
  r.add(overload<aten_pow>("aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor"));
  r.add(overload<aten_pow>("aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor"));
  r.add(overload<aten_pow>("aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)"));
  r.add(overload<aten_pow>("aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)"));
  r.add(overload<aten_remainder>("aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_remainder>("aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_remainder>(
      "aten::remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_fmod>("aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_fmod>("aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_maximum>("aten::maximum(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_minimum>("aten::minimum(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_maximum>("aten::max.other(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_minimum>("aten::min.other(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_atan2>("aten::atan2(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_logaddexp>("aten::logaddexp(Tensor self, Tensor other) -> Tensor"));

  // Comparisons, under their names and PyTorch's aliases.
  r.add(overload<aten_eq>("aten::eq.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_eq>("aten::eq.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_ne>("aten::ne.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_ne>("aten::ne.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_lt>("aten::lt.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_lt>("aten::lt.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_le>("aten::le.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_le>("aten::le.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_gt>("aten::gt.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_gt>("aten::gt.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_ge>("aten::ge.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_ge>("aten::ge.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_lt>("aten::less.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_lt>("aten::less.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_le>("aten::less_equal.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_le>("aten::less_equal.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_gt>("aten::greater.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_gt>("aten::greater.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_ge>("aten::greater_equal.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_ge>("aten::greater_equal.Scalar(Tensor self, Scalar other) -> Tensor"));

  r.add(overload<aten_logical_and>("aten::logical_and(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_logical_or>("aten::logical_or(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_logical_xor>("aten::logical_xor(Tensor self, Tensor other) -> Tensor"));
  r.add(
      overload<aten_bitwise_and>("aten::bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(
      overload<aten_bitwise_and>("aten::bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_and>(
      "aten::bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_or>("aten::bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_or>("aten::bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_or>(
      "aten::bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));
  r.add(
      overload<aten_bitwise_xor>("aten::bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(
      overload<aten_bitwise_xor>("aten::bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_xor>(
      "aten::bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));

  r.add(overload<aten_where>(
      "aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_where>(
      "aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_where>(
      "aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_where>(
      "aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor"));

  r.add(overload<aten_clamp>(
      "aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor"));
  r.add(overload<aten_clamp>(
      "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor"));
  r.add(overload<aten_clamp>(
      "aten::clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)"));
  r.add(overload<aten_clamp>(
      "aten::clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)"));
  r.add(overload<aten_clamp_min>("aten::clamp_min(Tensor self, Scalar min) -> Tensor"));
  r.add(overload<aten_clamp_min>("aten::clamp_min.Tensor(Tensor self, Tensor min) -> Tensor"));
  r.add(overload<aten_clamp_min>("aten::clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)"));
  r.add(overload<aten_clamp_max>("aten::clamp_max(Tensor self, Scalar max) -> Tensor"));
  r.add(overload<aten_clamp_max>("aten::clamp_max.Tensor(Tensor self, Tensor max) -> Tensor"));
  r.add(overload<aten_clamp_max>("aten::clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)"));

  r.add(overload<aten_masked_fill>(
      "aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor"));
  r.add(overload<aten_masked_fill>(
      "aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor"));
  r.add(overload<aten_masked_fill>(
      "aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)"));
  r.add(overload<aten_masked_fill>(
      "aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)"));
  r.add(overload<aten_lerp>("aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor"));
  r.add(overload<aten_lerp>("aten::lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor"));
  r.add(overload<aten_addcmul>(
      "aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"));
  r.add(overload<aten_addcdiv>(
      "aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"));
  r.add(overload<aten_addmm>(
      "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> "
      "Tensor"));
  r.add(overload<aten_baddbmm>(
      "aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar "
      "alpha=1) -> Tensor"));
  r.add(overload<aten_mm>("aten::mm(Tensor self, Tensor mat2) -> Tensor"));
  r.add(overload<aten_dot>("aten::dot(Tensor self, Tensor tensor) -> Tensor"));
  r.add(overload<aten_mv>("aten::mv(Tensor self, Tensor vec) -> Tensor"));
  r.add(overload<aten_outer>("aten::outer(Tensor self, Tensor vec2) -> Tensor"));

  r.add(overload<aten_xlogy>("aten::xlogy.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_xlogy>("aten::xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_xlogy>("aten::xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_logaddexp2>("aten::logaddexp2(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_heaviside>("aten::heaviside(Tensor self, Tensor values) -> Tensor"));
  r.add(overload<aten_isclose>(
      "aten::isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float "
      "atol=1e-08, bool equal_nan=False) -> Tensor"));
  r.add(overload<aten_allclose>(
      "aten::allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float "
      "atol=1e-08, bool equal_nan=False) -> bool"));
  r.add(overload<aten_equal>("aten::equal(Tensor self, Tensor other) -> bool"));
  r.add(overload<aten_addmv>(
      "aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> "
      "Tensor"));
  r.add(overload<aten_addr>(
      "aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> "
      "Tensor"));
  r.add(overload<aten_addbmm>(
      "aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar "
      "alpha=1) -> Tensor"));
  r.add(overload<aten_bitwise_left_shift>(
      "aten::bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_left_shift>(
      "aten::bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_left_shift>(
      "aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_left_shift>(
      "aten::__lshift__.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_left_shift>(
      "aten::__lshift__.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_right_shift>(
      "aten::bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_right_shift>(
      "aten::bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_bitwise_right_shift>(
      "aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_right_shift>(
      "aten::__rshift__.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_bitwise_right_shift>(
      "aten::__rshift__.Scalar(Tensor self, Scalar other) -> Tensor"));

  // PyTorch's aliases of the arithmetic family's operators.
  r.add(overload<aten_div>("aten::divide.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_div>("aten::divide.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_div_mode>(
      "aten::divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"));
  r.add(overload<aten_div_mode>(
      "aten::divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor"));
  r.add(overload<aten_div_mode>(
      "aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor"));
  r.add(overload<aten_div>("aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_div>("aten::true_divide.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_div>("aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"));
  r.add(overload<aten_div>("aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)"));
  r.add(overload<aten_sub>(
      "aten::subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_sub>(
      "aten::subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_sub>(
      "aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_sub>(
      "aten::sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_mul>("aten::multiply.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_mul>("aten::multiply.Scalar(Tensor self, Scalar other) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
