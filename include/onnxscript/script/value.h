#pragma once
/// \file
/// Value: the handle that script bodies compute with. One body serves two
/// modes: a Value refers either to a value traced into a graph under
/// construction, or to a concrete value (tensor, sequence, optional) computed
/// eagerly. Literals (`0.5`, `1`, `true`) stay unmaterialized until an operator
/// sees the value beside them, so that `X * 0.5` on a float16 X is float16.

#include <atomic>
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

namespace detail {
/// A concrete value shared by every Value that refers to it, freed with the
/// last one. The count is atomic: a Value may be handed to another thread.
struct ConcreteBox {
  explicit ConcreteBox(eval::RuntimeValue v) : value(std::move(v)) {}
  std::atomic<uint32_t> references{1};  ///< Values referring to this box.
  eval::RuntimeValue value;             ///< The value itself; never changes.
};
}  // namespace detail

/// A handle to a traced or concrete value, or a pending literal. Cheap to
/// copy (a tag and a pointer or number): pass it by value.
///
/// A concrete value is shared by the Values that refer to it and lives as
/// long as the last of them, wherever it was made: an eager loop runs in
/// constant memory, and a Value returned out of a lambda stays valid. A
/// traced value belongs to the graph being built.
class Value {
 public:
  /// What the handle refers to.
  enum class Kind : uint8_t { kNone, kTraced, kConcrete, kFloatLiteral, kIntLiteral, kBoolLiteral };

  /// No value: an omitted optional input.
  constexpr Value() : kind_(Kind::kNone), payload_{.int_ = 0} {}
  /// A float literal; takes the element type of the value beside it.
  constexpr Value(double v)  // NOLINT: literals convert
      : kind_(Kind::kFloatLiteral), payload_{.float_ = v} {}
  /// A float literal; takes the element type of the value beside it.
  constexpr Value(float v) : Value(static_cast<double>(v)) {}  // NOLINT
  /// An integer literal; takes the element type of the value beside it.
  constexpr Value(int v) : Value(static_cast<int64_t>(v)) {}  // NOLINT
  /// An integer literal; takes the element type of the value beside it.
  constexpr Value(int64_t v) : kind_(Kind::kIntLiteral), payload_{.int_ = v} {}  // NOLINT
  /// A boolean literal.
  constexpr Value(bool v) : kind_(Kind::kBoolLiteral), payload_{.bool_ = v} {}  // NOLINT
  /// A concrete tensor (shares its storage).
  Value(const Tensor& tensor);  // NOLINT: tensors convert
  /// A concrete value (shares its payload).
  Value(const eval::RuntimeValue& value);  // NOLINT
  /// A concrete value, moved in.
  Value(eval::RuntimeValue&& value);  // NOLINT
  /// A traced value.
  static Value traced(ir::Value* value) {
    Value v;
    v.kind_ = Kind::kTraced;
    v.payload_.traced_ = value;
    return v;
  }

  /// Another handle to the same value.
  Value(const Value& other) noexcept
      : kind_(other.kind_), adapts_type_(other.adapts_type_), payload_(other.payload_) {
    retain();
  }
  /// Takes over `other`'s reference; `other` becomes no value.
  Value(Value&& other) noexcept
      : kind_(other.kind_), adapts_type_(other.adapts_type_), payload_(other.payload_) {
    other.kind_ = Kind::kNone;
  }
  /// Refers to what `other` refers to.
  Value& operator=(const Value& other) noexcept {
    other.retain();
    release();
    kind_ = other.kind_;
    adapts_type_ = other.adapts_type_;
    payload_ = other.payload_;
    return *this;
  }
  /// Takes over `other`'s reference; `other` becomes no value.
  Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      release();
      kind_ = other.kind_;
      adapts_type_ = other.adapts_type_;
      payload_ = other.payload_;
      other.kind_ = Kind::kNone;
    }
    return *this;
  }
  ~Value() { release(); }

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

  /// True for a script attribute used as a value (Attr<T> converted): like a
  /// literal, an operator gives it the element type of the value beside it
  /// (a Cast, or a CastLike when that type is not known while tracing), so
  /// that `X * alpha` is float16 on a float16 X in both modes.
  bool adapts_type() const { return adapts_type_; }
  /// This value, marked as adapting its element type to its peers (see
  /// adapts_type()). For traced and concrete tensors.
  Value adapting_type() const {
    Value v = *this;
    v.adapts_type_ = kind_ == Kind::kTraced || kind_ == Kind::kConcrete;
    return v;
  }

  /// The traced IR value; null unless is_traced().
  ir::Value* ir_value() const { return kind_ == Kind::kTraced ? payload_.traced_ : nullptr; }
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
  /// The rank when known: a traced tensor whose type has a shape, or a
  /// concrete tensor. What functions that branch on rank (torchlib's linear
  /// emits Gemm for rank 2) read.
  std::optional<int64_t> rank() const;
  /// The shape when the rank is known (dimensions may be symbolic or
  /// unknown while tracing; always static for a concrete tensor).
  std::optional<ir::Shape> shape() const;

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
  void retain() const {
    if (kind_ == Kind::kConcrete)
      payload_.concrete_->references.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (kind_ == Kind::kConcrete &&
        payload_.concrete_->references.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete payload_.concrete_;
  }

  Kind kind_;
  bool adapts_type_ = false;
  // Copied as a whole (the union's implicit copy), whichever member is live.
  union Payload {
    ir::Value* traced_;
    detail::ConcreteBox* concrete_;
    double float_;
    int64_t int_;
    bool bool_;
  } payload_;
};

static_assert(sizeof(Value) == 16, "Value must stay a cheap handle: a tag and a word");

}  // namespace onnxscript
