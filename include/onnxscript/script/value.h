#pragma once
/// \file
/// Value: the handle that script bodies compute with. One body serves two
/// modes: a Value refers either to a value traced into a graph under
/// construction, or to a concrete value (tensor, sequence, optional) computed
/// eagerly. Literals (`0.5`, `1`, `true`) stay unmaterialized until an operator
/// sees the value beside them, so that `X * 0.5` on a float16 X is float16.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>

#include "onnxscript/eval/runtime_value.h"
#include "onnxscript/ir/data_type.h"

namespace onnxscript {

namespace ir {
class Value;
}
class Index;  // indexing.h

using ir::DataType;
using ir::Tensor;

/// A handle to a traced or concrete value, or a pending literal. Trivially
/// copyable: pass it by value.
///
/// Concrete values are owned by the current eager scope (see EagerScope in
/// trace.h); traced values by the graph being built.
class Value {
 public:
  /// What the handle refers to.
  enum class Kind : uint8_t { kNone, kTraced, kConcrete, kFloatLiteral, kIntLiteral, kBoolLiteral };

  /// No value: an omitted optional input.
  constexpr Value() : kind_(Kind::kNone), int_(0) {}
  /// A float literal; takes the element type of the value beside it.
  constexpr Value(double v) : kind_(Kind::kFloatLiteral), float_(v) {}  // NOLINT: literals convert
  /// A float literal; takes the element type of the value beside it.
  constexpr Value(float v) : kind_(Kind::kFloatLiteral), float_(v) {}  // NOLINT
  /// An integer literal; takes the element type of the value beside it.
  constexpr Value(int v) : kind_(Kind::kIntLiteral), int_(v) {}  // NOLINT
  /// An integer literal; takes the element type of the value beside it.
  constexpr Value(int64_t v) : kind_(Kind::kIntLiteral), int_(v) {}  // NOLINT
  /// A boolean literal.
  constexpr Value(bool v) : kind_(Kind::kBoolLiteral), bool_(v) {}  // NOLINT
  /// A concrete tensor, held by the current eager scope.
  Value(const Tensor& tensor);  // NOLINT: tensors convert
  /// A concrete value, held by the current eager scope.
  Value(const eval::RuntimeValue& value);  // NOLINT
  /// A concrete value moved into the current eager scope (no copy).
  Value(eval::RuntimeValue&& value);  // NOLINT
  /// A traced value.
  static Value traced(ir::Value* value) {
    Value v;
    v.kind_ = Kind::kTraced;
    v.traced_ = value;
    return v;
  }

  /// What the handle refers to.
  Kind kind() const { return kind_; }
  /// True for an omitted value.
  bool is_none() const { return kind_ == Kind::kNone; }
  /// True when the value lives in a graph under construction.
  bool is_traced() const { return kind_ == Kind::kTraced; }
  /// True for a concrete (eager) value.
  bool is_concrete() const { return kind_ == Kind::kConcrete; }
  /// True for a pending literal.
  bool is_literal() const {
    return kind_ == Kind::kFloatLiteral || kind_ == Kind::kIntLiteral ||
           kind_ == Kind::kBoolLiteral;
  }

  /// The traced IR value; null unless is_traced().
  ir::Value* ir_value() const { return kind_ == Kind::kTraced ? traced_ : nullptr; }
  /// The concrete value; throws TypeError unless is_concrete().
  const eval::RuntimeValue& concrete() const;
  /// The concrete tensor; throws TypeError unless this is a concrete tensor.
  const Tensor& tensor() const { return concrete().tensor(); }

  /// The literal as a double (float, int and bool literals).
  double literal_as_double() const;
  /// The literal as an int64 (int and bool literals; float literals truncate).
  int64_t literal_as_int() const;

  /// The element type when known: a traced tensor with a known type, or a
  /// concrete tensor. Literals have none until an operator gives them one.
  std::optional<DataType> dtype() const;

  /// Names a traced value (e.g. `.named("AW")`); returns *this. No effect on
  /// concrete values, which have no names.
  Value named(std::string name) const;

  /// A concrete one-element tensor or a literal as a C++ bool, so that eager
  /// code may write `if (x)`; an omitted value is false. A traced value has
  /// no value yet: this throws ScriptError naming the line that produced it
  /// and pointing at If, for_range/while_loop or op::Where (control_flow.h).
  explicit operator bool() const;

  /// A short description for messages: "traced float[N,3] 'X'", "tensor(float)[2]", "literal 0.5".
  std::string describe() const;

  /// numpy / ONNX Script indexing: `x[2]`, `x[{0, Slice(1, -1)}]`,
  /// `x[{Ellipsis, NewAxis}]`. Include onnxscript/script/indexing.h to use.
  Value operator[](const Index& index) const;
  /// Several indices at once; see indexing.h.
  Value operator[](std::initializer_list<Index> indices) const;

 private:
  Kind kind_;
  union {
    ir::Value* traced_;
    const eval::RuntimeValue* concrete_;
    double float_;
    int64_t int_;
    bool bool_;
  };
};

static_assert(std::is_trivially_copyable_v<Value>, "Value must stay a cheap handle");

}  // namespace onnxscript
