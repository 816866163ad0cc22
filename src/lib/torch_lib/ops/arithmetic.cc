// Elementwise arithmetic: add, sub, rsub, mul, div (three rounding modes),
// floor_divide.

#include "lib/torch_lib/bind.h"
#include "lib/torch_lib/common.h"
#include "lib/torch_lib/families.h"
#include "lib/torch_lib/promotion.h"

namespace onnxscript::torch_lib {

namespace {

// alpha * other, skipping the multiplication for the usual alpha of 1.
Value scaled(const Value& other, const Value& alpha) {
  if (is_known_scalar(alpha, 1.0)) return other;
  // Two Python numbers (add.Scalar's other and alpha) multiply now: as
  // literals of different kinds (1.5 and 2) Mul would reject them, and the
  // product still takes the tensor's element type where it is used.
  if (other.is_literal() && alpha.is_literal()) {
    const Value::Kind float_literal = Value::Kind::kFloatLiteral;
    if (other.kind() == float_literal || alpha.kind() == float_literal)
      return Value(other.literal_as_double() * alpha.literal_as_double());
    return Value(other.literal_as_int() * alpha.literal_as_int());
  }
  return op::Mul(other, alpha);
}

// Integer operands divide as float32, as torch.div's true division does.
std::pair<Value, Value> as_true_division_operands(Value a, Value b) {
  if (has_integral_dtype(a) && (has_integral_dtype(b) || b.is_literal())) {
    a = op::Cast(a, {.to = DataType::kFloat});
    if (!b.is_literal()) b = op::Cast(b, {.to = DataType::kFloat});
  }
  return {a, b};
}

// Division rounded toward negative infinity, for integers: ONNX's Div
// truncates, so step the quotient down where the remainder is non-zero and
// its sign differs from the divisor's.
Value integer_floor_division(const Value& a, const Value& b) {
  Value q = op::Div(a, b);
  Value r = op::Sub(a, op::Mul(q, b));
  Value signs_differ = op::Xor(op::Less(r, 0), op::Less(b, 0));
  Value adjust = op::And(op::Not(op::Equal(r, 0)), signs_differ);
  return op::Sub(q, op::CastLike(adjust, q));
}

}  // namespace

Value aten_add(Value self, Value other, Value alpha) {
  // PyTorch adds booleans as a logical or (alpha must then be 1); ONNX's Add
  // takes no bool.
  if (self.dtype() == DataType::kBool && other.dtype() == DataType::kBool)
    return op::Or(self, other);
  auto [a, b] = promote(std::move(self), std::move(other));
  return op::Add(a, scaled(b, alpha));
}

Value aten_sub(Value self, Value other, Value alpha) {
  auto [a, b] = promote(std::move(self), std::move(other));
  return op::Sub(a, scaled(b, alpha));
}

Value aten_rsub(Value self, Value other, Value alpha) {
  auto [a, b] = promote(std::move(self), std::move(other));
  return op::Sub(b, scaled(a, alpha));
}

Value aten_mul(Value self, Value other) {
  // PyTorch multiplies booleans as a logical and; ONNX's Mul takes no bool.
  if (self.dtype() == DataType::kBool && other.dtype() == DataType::kBool)
    return op::And(self, other);
  auto [a, b] = promote(std::move(self), std::move(other));
  return op::Mul(a, b);
}

Value aten_div(Value self, Value other) {
  auto [a, b] = as_true_division_operands(std::move(self), std::move(other));
  std::tie(a, b) = promote(std::move(a), std::move(b));
  return op::Div(a, b);
}

Value aten_div_mode(Value self, Value other, std::optional<std::string> rounding_mode) {
  if (!rounding_mode) return aten_div(std::move(self), std::move(other));
  if (*rounding_mode == "trunc") {
    if (has_integral_dtype(self)) return op::Div(self, other);  // ONNX's integer Div truncates
    const Value q = op::Div(self, other);
    // trunc(q) = sign(q) * floor(|q|).
    return op::Mul(op::Sign(q), op::Floor(op::Abs(q)));
  }
  if (*rounding_mode == "floor") return aten_floor_divide(std::move(self), std::move(other));
  throw TypeError("aten::div.Tensor_mode: rounding_mode must be None, 'trunc' or 'floor', got '" +
                  *rounding_mode + "'");
}

Value aten_floor_divide(Value self, Value other) {
  if (has_integral_dtype(self)) return integer_floor_division(self, other);
  return op::Floor(op::Div(self, other));
}

void register_arithmetic(Registry& r) {
  using detail::overload;
  r.add(overload<aten_add>(
      "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(
      overload<aten_add>("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_add>(
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_add>(
      "aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)"));
  r.add(overload<aten_sub>(
      "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(
      overload<aten_sub>("aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_rsub>(
      "aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_rsub>(
      "aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_mul>("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"));
  r.add(overload<aten_div>("aten::div.Tensor(Tensor self, Tensor other) -> Tensor"));
  r.add(overload<aten_div>("aten::div.Scalar(Tensor self, Scalar other) -> Tensor"));
  r.add(overload<aten_div_mode>(
      "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"));
  r.add(overload<aten_floor_divide>("aten::floor_divide(Tensor self, Tensor other) -> Tensor"));
}

}  // namespace onnxscript::torch_lib
