#include "onnxscript/script/operators.h"

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace onnxscript {
namespace {

Value apply(std::string_view op, std::initializer_list<Value> inputs, std::vector<ir::Attribute> attributes = {}) {
  const int64_t version = detail::default_opset_version();
  const detail::OpSignature* sig = detail::find_signature("", op, version);
  if (!sig) throw ScriptError(fmt::format("operator {} does not exist in opset {}", op, version));
  // Operator overloads cannot take a source location; errors name the operator.
  return detail::call_op(*sig, version, std::span<const Value>(inputs.begin(), inputs.size()), std::move(attributes),
                         1, std::source_location::current())[0];
}

bool is_float_side(const Value& v) {
  if (v.kind() == Value::Kind::kFloatLiteral) return true;
  auto dtype = v.dtype();
  return dtype && ir::is_floating_point(*dtype);
}

}  // namespace

int64_t detail::default_opset_version() {
  if (TraceScope* scope = TraceScope::current()) {
    if (auto v = scope->opsets().find("")) return *v;
  }
  return 17;
}

Value operator+(Value a, Value b) { return apply("Add", {a, b}); }
Value operator-(Value a, Value b) { return apply("Sub", {a, b}); }
Value operator*(Value a, Value b) { return apply("Mul", {a, b}); }
Value operator/(Value a, Value b) { return apply("Div", {a, b}); }
Value operator%(Value a, Value b) {
  const bool fmod = is_float_side(a) || is_float_side(b);
  return apply("Mod", {a, b}, {ir::Attribute::make_int("fmod", fmod ? 1 : 0)});
}
Value operator-(Value a) { return apply("Neg", {a}); }
Value operator<(Value a, Value b) { return apply("Less", {a, b}); }
Value operator<=(Value a, Value b) { return apply("LessOrEqual", {a, b}); }
Value operator>(Value a, Value b) { return apply("Greater", {a, b}); }
Value operator>=(Value a, Value b) { return apply("GreaterOrEqual", {a, b}); }
Value operator&(Value a, Value b) { return apply("And", {a, b}); }
Value operator|(Value a, Value b) { return apply("Or", {a, b}); }
Value operator^(Value a, Value b) { return apply("Xor", {a, b}); }
Value operator!(Value a) { return apply("Not", {a}); }
Value operator~(Value a) { return apply("Not", {a}); }
Value equal(Value a, Value b) { return apply("Equal", {a, b}); }
Value not_equal(Value a, Value b) { return apply("Not", {apply("Equal", {a, b})}); }

}  // namespace onnxscript
