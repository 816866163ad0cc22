#include "onnxscript/script/value.h"

#include <fmt/format.h>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/script/typed.h"

namespace onnxscript {

Value::Value(const Tensor& tensor) : Value(eval::RuntimeValue(tensor)) {}

Value::Value(const eval::RuntimeValue& value) : kind_(Kind::kConcrete) {
  concrete_ = EagerScope::hold(value);
}

const eval::RuntimeValue& Value::concrete() const {
  if (kind_ != Kind::kConcrete) throw TypeError(fmt::format("expected a concrete value, got {}", describe()));
  return *concrete_;
}

double Value::literal_as_double() const {
  switch (kind_) {
    case Kind::kFloatLiteral:
      return float_;
    case Kind::kIntLiteral:
      return static_cast<double>(int_);
    case Kind::kBoolLiteral:
      return bool_ ? 1.0 : 0.0;
    default:
      throw TypeError(fmt::format("expected a literal, got {}", describe()));
  }
}

int64_t Value::literal_as_int() const {
  switch (kind_) {
    case Kind::kFloatLiteral:
      return static_cast<int64_t>(float_);
    case Kind::kIntLiteral:
      return int_;
    case Kind::kBoolLiteral:
      return bool_ ? 1 : 0;
    default:
      throw TypeError(fmt::format("expected a literal, got {}", describe()));
  }
}

std::optional<DataType> Value::dtype() const {
  if (kind_ == Kind::kTraced) {
    const auto& type = traced_->type();
    if (type && type->is_tensor() && type->elem_type != DataType::kUndefined) return type->elem_type;
    return std::nullopt;
  }
  if (kind_ == Kind::kConcrete && concrete_->is_tensor()) return concrete_->tensor().dtype();
  return std::nullopt;
}

Value Value::named(std::string name) const {
  if (kind_ == Kind::kTraced) traced_->set_name(std::move(name));
  return *this;
}

std::string Value::describe() const {
  switch (kind_) {
    case Kind::kNone:
      return "no value";
    case Kind::kTraced:
      return fmt::format("traced {} '{}'", traced_->type() ? traced_->type()->to_string() : "?",
                         traced_->name());
    case Kind::kConcrete:
      return concrete_->describe();
    case Kind::kFloatLiteral:
      return fmt::format("literal {}", float_);
    case Kind::kIntLiteral:
      return fmt::format("literal {}", int_);
    case Kind::kBoolLiteral:
      return bool_ ? "literal true" : "literal false";
  }
  return "?";
}

}  // namespace onnxscript

namespace onnxscript::detail {

void check_element_type(const Value& v, DataType expected) {
  const auto actual = v.dtype();
  if (actual && *actual != expected) {
    throw ScriptError(fmt::format("a {} value cannot be a typed {} value", ir::data_type_name(*actual),
                                  ir::data_type_name(expected)));
  }
}

}  // namespace onnxscript::detail
