#include "onnxscript/script/operators.h"

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace onnxscript {
namespace {

Value apply(std::string_view op, std::initializer_list<Value> inputs, std::source_location location,
            std::vector<ir::Attribute> attributes = {}) {
  const int64_t version = detail::default_opset_version();
  if (TraceScope* scope = TraceScope::current()) scope->use_default_onnx_opset(version);
  const detail::OpSignature* sig = detail::find_signature("", op, version);
  if (!sig) throw ScriptError(fmt::format("operator {} does not exist in opset {}", op, version));
  return detail::call_op(*sig, version, std::span<const Value>(inputs.begin(), inputs.size()),
                         std::move(attributes), 1, location)[0];
}

bool is_float_side(const Value& v) {
  if (v.kind() == Value::Kind::kFloatLiteral) return true;
  auto dtype = v.dtype();
  return dtype && ir::is_floating_point(*dtype);
}

bool is_integer_side(const Value& v) {
  if (v.kind() == Value::Kind::kIntLiteral) return true;
  auto dtype = v.dtype();
  return dtype && *dtype != DataType::kBool && !ir::is_floating_point(*dtype);
}

// `& | ^ ~` are logical on booleans and bitwise on integers. The bitwise
// operators arrive in opset 18; this build's schemas stop at 17, so integer
// operands are reported rather than silently given logical semantics.
std::string_view logical_or_bitwise(std::string_view logical, std::string_view bitwise,
                                    const Value& a, const Value& b) {
  const bool integer =
      (is_integer_side(a) && !a.is_literal()) || (is_integer_side(b) && !b.is_literal());
  if (!integer) return logical;
  if (detail::find_signature("", bitwise, detail::default_opset_version())) return bitwise;
  throw ScriptError(fmt::format(
      "{} on integer tensors needs ONNX opset 18 ({}), which this build's schemas do not "
      "have; {} is for booleans",
      bitwise, bitwise, logical));
}

}  // namespace

int64_t detail::default_opset_version() {
  if (TraceScope* scope = TraceScope::current()) {
    if (auto v = scope->onnx_opset()) return *v;
  }
  return 17;
}

using detail::Operand;

Value operator+(Operand a, Operand b) { return apply("Add", {a.value, b.value}, a.location); }
Value operator-(Operand a, Operand b) { return apply("Sub", {a.value, b.value}, a.location); }
Value operator*(Operand a, Operand b) { return apply("Mul", {a.value, b.value}, a.location); }
Value operator/(Operand a, Operand b) { return apply("Div", {a.value, b.value}, a.location); }
Value operator%(Operand a, Operand b) {
  // Floats need fmod = 1 (ONNX rejects fmod = 0 for them); integers keep the
  // schema default 0, Python's sign-of-divisor semantics, as ONNX Script does.
  if (!(is_float_side(a.value) || is_float_side(b.value)))
    return apply("Mod", {a.value, b.value}, a.location);
  return apply("Mod", {a.value, b.value}, a.location, {ir::Attribute::make_int("fmod", 1)});
}
Value operator-(Operand a) { return apply("Neg", {a.value}, a.location); }
Value operator<(Operand a, Operand b) { return apply("Less", {a.value, b.value}, a.location); }
Value operator<=(Operand a, Operand b) {
  return apply("LessOrEqual", {a.value, b.value}, a.location);
}
Value operator>(Operand a, Operand b) { return apply("Greater", {a.value, b.value}, a.location); }
Value operator>=(Operand a, Operand b) {
  return apply("GreaterOrEqual", {a.value, b.value}, a.location);
}
Value operator&(Operand a, Operand b) {
  return apply(logical_or_bitwise("And", "BitwiseAnd", a.value, b.value), {a.value, b.value},
               a.location);
}
Value operator|(Operand a, Operand b) {
  return apply(logical_or_bitwise("Or", "BitwiseOr", a.value, b.value), {a.value, b.value},
               a.location);
}
Value operator^(Operand a, Operand b) {
  return apply(logical_or_bitwise("Xor", "BitwiseXor", a.value, b.value), {a.value, b.value},
               a.location);
}
Value operator!(Value a) { return apply("Not", {a}, std::source_location::current()); }
Value operator~(Operand a) {
  return apply(logical_or_bitwise("Not", "BitwiseNot", a.value, a.value), {a.value}, a.location);
}
Value equal(Value a, Value b, std::source_location location) {
  return apply("Equal", {a, b}, location);
}
Value not_equal(Value a, Value b, std::source_location location) {
  return apply("Not", {apply("Equal", {a, b}, location)}, location);
}

}  // namespace onnxscript
