#pragma once
/// \file
/// Statically typed values: FLOAT<"N", "M">, INT64<3>, BOOL<> (a scalar),
/// FLOAT<AnyRank>. The element type is part of the C++ type, so the generated
/// operator API can reject misuse at compile time; the dimensions become the
/// declared shape of a script's inputs and outputs.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "onnxscript/ir/type.h"
#include "onnxscript/script/value.h"

namespace onnxscript {

/// One dimension in a typed value's C++ type: a size (3), a symbol ("N"),
/// unknown ("?"), or the marker AnyRank.
struct DimSpec {
  /// What the dimension is.
  enum class Kind : uint8_t { kStatic, kSymbolic, kUnknown, kAnyRank };
  Kind kind = Kind::kUnknown;  ///< What the dimension is.
  int64_t value = 0;           ///< The size, for kStatic.
  char symbol[32] = {};        ///< The symbol, for kSymbolic (NUL-terminated).

  /// A static size.
  constexpr DimSpec(int64_t v) : kind(Kind::kStatic), value(v) {}  // NOLINT: `FLOAT<3>`
  /// A static size.
  constexpr DimSpec(int v) : kind(Kind::kStatic), value(v) {}  // NOLINT
  /// A symbolic dimension; "?" means unknown.
  template <size_t N>
  constexpr DimSpec(const char (&s)[N]) : kind(Kind::kSymbolic) {  // NOLINT: `FLOAT<"N">`
    static_assert(N <= sizeof(symbol), "dimension symbols are limited to 31 characters");
    if (N == 2 && s[0] == '?') kind = Kind::kUnknown;
    for (size_t i = 0; i < N; ++i) symbol[i] = s[i];
  }
  /// The AnyRank marker.
  static constexpr DimSpec any_rank() {
    DimSpec d(0);
    d.kind = Kind::kAnyRank;
    return d;
  }
};

/// `FLOAT<AnyRank>`: a tensor of unknown rank.
inline constexpr DimSpec AnyRank = DimSpec::any_rank();

/// The static element type of a value type: D for TypedValue<D, ...>, none for Value.
template <typename V>
struct StaticDataType {
  /// The element type, or nullopt.
  static constexpr std::optional<DataType> value = std::nullopt;
};

namespace detail {
/// Throws ScriptError when `v`'s element type is known and is not `expected`.
void check_element_type(const Value& v, DataType expected);
}  // namespace detail

/// A Value whose element type (and declared shape) is part of its C++ type.
template <DataType D, DimSpec... Dims>
class TypedValue : public Value {
 public:
  /// The element type.
  static constexpr DataType kDataType = D;

  /// No value.
  TypedValue() = default;
  /// Wraps an untyped value (a Value, or a Function call's Outputs), as in
  /// `-> FLOAT<"N"> { return Gelu(X); }`. When the value's element type is
  /// known and is not D, throws ScriptError. Typed values of another element
  /// type do not convert: that is a compile-time error.
  template <typename V>
  requires(std::is_convertible_v<const V&, Value> && !StaticDataType<V>::value.has_value())
      TypedValue(const V& v)  // NOLINT: untyped values convert, checked
      : Value(static_cast<Value>(v)) {
    detail::check_element_type(*this, D);
  }

  /// The declared type: element type and shape (nullopt shape for AnyRank).
  static ir::Type declared_type() {
    constexpr bool any_rank = ((Dims.kind == DimSpec::Kind::kAnyRank) || ...);
    if constexpr (any_rank) {
      return ir::Type::tensor(D);
    } else {
      ir::Shape shape;
      (shape.push_back(to_dim(Dims)), ...);
      return ir::Type::tensor(D, std::move(shape));
    }
  }

 private:
  static ir::Dim to_dim(const DimSpec& d) {
    switch (d.kind) {
      case DimSpec::Kind::kStatic:
        return ir::Dim(d.value);
      case DimSpec::Kind::kSymbolic:
        return ir::Dim(std::string(d.symbol));
      default:
        return ir::Dim();
    }
  }
};

/// The static element type of a TypedValue.
template <DataType D, DimSpec... Dims>
struct StaticDataType<TypedValue<D, Dims...>> {
  static constexpr std::optional<DataType> value = D;
};

// One alias per ONNX element type, spelled as ONNX Script spells them.
template <DimSpec... Ds>
using FLOAT = TypedValue<DataType::kFloat, Ds...>;
template <DimSpec... Ds>
using DOUBLE = TypedValue<DataType::kDouble, Ds...>;
template <DimSpec... Ds>
using FLOAT16 = TypedValue<DataType::kFloat16, Ds...>;
template <DimSpec... Ds>
using BFLOAT16 = TypedValue<DataType::kBfloat16, Ds...>;
template <DimSpec... Ds>
using INT8 = TypedValue<DataType::kInt8, Ds...>;
template <DimSpec... Ds>
using INT16 = TypedValue<DataType::kInt16, Ds...>;
template <DimSpec... Ds>
using INT32 = TypedValue<DataType::kInt32, Ds...>;
template <DimSpec... Ds>
using INT64 = TypedValue<DataType::kInt64, Ds...>;
template <DimSpec... Ds>
using UINT8 = TypedValue<DataType::kUint8, Ds...>;
template <DimSpec... Ds>
using UINT16 = TypedValue<DataType::kUint16, Ds...>;
template <DimSpec... Ds>
using UINT32 = TypedValue<DataType::kUint32, Ds...>;
template <DimSpec... Ds>
using UINT64 = TypedValue<DataType::kUint64, Ds...>;
template <DimSpec... Ds>
using BOOL = TypedValue<DataType::kBool, Ds...>;
template <DimSpec... Ds>
using STRING = TypedValue<DataType::kString, Ds...>;
template <DimSpec... Ds>
using COMPLEX64 = TypedValue<DataType::kComplex64, Ds...>;
template <DimSpec... Ds>
using COMPLEX128 = TypedValue<DataType::kComplex128, Ds...>;

/// A sequence whose elements have the type of `Element` (a typed tensor such
/// as FLOAT<"N">), as a script parameter: `SEQUENCE<FLOAT<AnyRank>> pieces`
/// declares the input `seq(tensor(float))`.
template <typename Element>
class SEQUENCE : public Value {
 public:
  /// No value.
  SEQUENCE() = default;
  /// Wraps a value (a traced sequence, or a concrete one), or a Function call's Outputs.
  template <typename V>
  requires std::is_convertible_v<const V&, Value> SEQUENCE(const V& v)  // NOLINT: values convert
      : Value(static_cast<Value>(v)) {}
  /// The declared type: seq(<Element's type>).
  static ir::Type declared_type() { return ir::Type::sequence(Element::declared_type()); }
};

/// An optional value of the type of `Element` (a typed tensor, or a
/// SEQUENCE<...>), as a script parameter: `OPTIONAL<FLOAT<"N">> bias`.
template <typename Element>
class OPTIONAL : public Value {
 public:
  /// No value.
  OPTIONAL() = default;
  /// Wraps a value (a traced optional, or a concrete one), or a Function call's Outputs.
  template <typename V>
  requires std::is_convertible_v<const V&, Value> OPTIONAL(const V& v)  // NOLINT: values convert
      : Value(static_cast<Value>(v)) {}
  /// The declared type: optional(<Element's type>).
  static ir::Type declared_type() { return ir::Type::optional(Element::declared_type()); }
};

}  // namespace onnxscript
