#include "onnxscript/script/value.h"

#include <fmt/format.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/ir/graph.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/script/typed.h"

namespace onnxscript {

Value::Value(const Tensor& tensor)
    : kind_(Kind::kConcrete), payload_{.concrete_ = new detail::ConcreteBox(tensor)} {}

Value::Value(const eval::RuntimeValue& value)
    : kind_(Kind::kConcrete), payload_{.concrete_ = new detail::ConcreteBox(value)} {}

Value::Value(eval::RuntimeValue&& value)
    : kind_(Kind::kConcrete), payload_{.concrete_ = new detail::ConcreteBox(std::move(value))} {}

const eval::RuntimeValue& Value::concrete() const {
  if (kind_ != Kind::kConcrete)
    throw TypeError(fmt::format("expected a concrete value, got {}", describe()));
  return payload_.concrete_->value;
}

double Value::literal_as_double() const {
  switch (kind_) {
    case Kind::kFloatLiteral:
      return payload_.float_;
    case Kind::kIntLiteral:
      return static_cast<double>(payload_.int_);
    case Kind::kBoolLiteral:
      return payload_.bool_ ? 1.0 : 0.0;
    default:
      throw TypeError(fmt::format("expected a literal, got {}", describe()));
  }
}

int64_t Value::literal_as_int() const {
  switch (kind_) {
    case Kind::kFloatLiteral:
      return static_cast<int64_t>(payload_.float_);
    case Kind::kIntLiteral:
      return payload_.int_;
    case Kind::kBoolLiteral:
      return payload_.bool_ ? 1 : 0;
    default:
      throw TypeError(fmt::format("expected a literal, got {}", describe()));
  }
}

std::optional<DataType> Value::dtype() const {
  if (kind_ == Kind::kTraced) {
    const auto& type = payload_.traced_->type();
    if (type && type->is_tensor() && type->elem_type != DataType::kUndefined)
      return type->elem_type;
    return std::nullopt;
  }
  if (kind_ == Kind::kConcrete && payload_.concrete_->value.is_tensor())
    return payload_.concrete_->value.tensor().dtype();
  return std::nullopt;
}

std::optional<ir::Shape> Value::shape() const {
  if (kind_ == Kind::kTraced) {
    const auto& type = payload_.traced_->type();
    if (type && type->is_tensor() && type->shape) return *type->shape;
    return std::nullopt;
  }
  if (kind_ == Kind::kConcrete && payload_.concrete_->value.is_tensor()) {
    ir::Shape shape;
    for (int64_t d : payload_.concrete_->value.tensor().shape()) shape.push_back(ir::Dim(d));
    return shape;
  }
  return std::nullopt;
}

std::optional<int64_t> Value::rank() const {
  if (kind_ == Kind::kConcrete && payload_.concrete_->value.is_tensor())
    return static_cast<int64_t>(payload_.concrete_->value.tensor().shape().size());
  const std::optional<ir::Shape> s = shape();
  if (!s) return std::nullopt;
  return static_cast<int64_t>(s->size());
}

Value Value::named(std::string name) const {
  if (kind_ == Kind::kTraced) payload_.traced_->set_name(std::move(name));
  return *this;
}

Value::operator bool() const {
  switch (kind_) {
    case Kind::kNone:
      return false;
    case Kind::kBoolLiteral:
      return payload_.bool_;
    case Kind::kIntLiteral:
      return payload_.int_ != 0;
    case Kind::kFloatLiteral:
      return payload_.float_ != 0.0;
    case Kind::kConcrete: {
      if (!payload_.concrete_->value.is_tensor() ||
          payload_.concrete_->value.tensor().numel() != 1) {
        throw ScriptError(
            fmt::format("the truth value of {} is ambiguous: only a one-element tensor converts to "
                        "bool (reduce it first, "
                        "e.g. op::ReduceMax)",
                        describe()));
      }
      const Tensor& t = payload_.concrete_->value.tensor();
      if (t.dtype() == DataType::kBool) return *t.data<bool>();
      const ir::Attribute to = ir::Attribute::make_int("to", static_cast<int64_t>(DataType::kBool));
      const eval::RuntimeValue in = t;
      return *eval::run_op("Cast", std::span<const eval::RuntimeValue>(&in, 1),
                           std::span<const ir::Attribute>(&to, 1))
                  .at(0)
                  .tensor()
                  .data<bool>();
    }
    case Kind::kTraced:
      break;
  }
  // A conversion operator cannot take the caller's source_location: name the
  // line that produced the value instead.
  std::string what;
  const ir::Node* producer = payload_.traced_->producer();
  if (producer && producer->origin.line() != 0) {
    what = fmt::format("the value produced at {}:{} ('{}')", producer->origin.file_name(),
                       producer->origin.line(), payload_.traced_->name());
  } else if (payload_.traced_->is_graph_input()) {
    what = fmt::format("the graph input '{}'", payload_.traced_->name());
  } else {
    what = fmt::format("the traced value '{}'", payload_.traced_->name());
  }
  throw ScriptError(
      fmt::format("{} is used as a C++ bool (if, while, &&, ||, ?:), but a traced value is only "
                  "known when the graph runs; "
                  "for data-dependent control flow use If(cond, then, else), for_range/while_loop, "
                  "or op::Where",
                  what));
}

std::string Value::describe() const {
  switch (kind_) {
    case Kind::kNone:
      return "no value";
    case Kind::kTraced:
      return fmt::format("traced {} '{}'",
                         payload_.traced_->type() ? payload_.traced_->type()->to_string() : "?",
                         payload_.traced_->name());
    case Kind::kConcrete:
      return payload_.concrete_->value.describe();
    case Kind::kFloatLiteral:
      return fmt::format("literal {}", payload_.float_);
    case Kind::kIntLiteral:
      return fmt::format("literal {}", payload_.int_);
    case Kind::kBoolLiteral:
      return payload_.bool_ ? "literal true" : "literal false";
  }
  return "?";
}

}  // namespace onnxscript

namespace onnxscript::detail {

void check_element_type(const Value& v, DataType expected) {
  const auto actual = v.dtype();
  if (actual && *actual != expected) {
    throw ScriptError(fmt::format("a {} value cannot be a typed {} value",
                                  ir::data_type_name(*actual), ir::data_type_name(expected)));
  }
}

}  // namespace onnxscript::detail
