#pragma once
/// \file
/// The vocabulary of the generated operator API (onnxscript/opsets/...).
/// tools/opgen writes, for every operator version, a function object whose
/// parameters use the types below:
///  - detail::In<detail::Types<...>>: one input. It converts from anything a
///    Value converts from, and a statically typed value (FLOAT<"N">, ...) only
///    when its element type is one the schema allows, so misuse fails to
///    compile.
///  - detail::ValueList<In>: a variadic input, `{a, b, c}` or a std::vector<Value>.
///  - detail::AttrField<T> / detail::Required<T, "name">: one attribute in an
///    operator's Attributes aggregate. Required has no default constructor, so
///    leaving a required attribute out of `{.axis = 0}` does not compile, and
///    the error names it.
/// Users never spell these names: they call `op::Add(a, b)`.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxscript/ir/attribute.h"
#include "onnxscript/script/graph.h"
#include "onnxscript/script/typed.h"

namespace onnxscript {

/// Unpacks a variadic result (e.g. from Split or Scan) of known length for
/// structured bindings: `auto [a, b] = unpack<2>(op::Split.outputs(2)(x));`.
/// Throws Error when the length differs.
template <size_t N>
std::array<Value, N> unpack(const std::vector<Value>& values);

namespace detail {

/// A set of tensor element types a schema input allows. Only tensor types are
/// listed: sequences, maps and optionals cannot be statically typed values.
template <DataType... Ds>
struct Types {
  /// True when `d` is in the set.
  static constexpr bool contains(DataType d) { return ((d == Ds) || ...); }
};

/// V can be passed where a schema input of element types `Set` is expected:
/// it converts to Value (not as a pointer, which would silently become a bool
/// literal) and, when its element type is static, the type is in `Set`.
template <typename V, typename Set>
concept AllowedBy = std::convertible_to<const V&, Value> && !std::is_pointer_v<std::decay_t<V>> &&
                    (!StaticDataType<std::remove_cvref_t<V>>::value.has_value() ||
                     Set::contains(*StaticDataType<std::remove_cvref_t<V>>::value));

/// One operator input of element types `S` (a Types<...>).
template <typename S>
class In : public Value {
 public:
  /// The allowed element types.
  using Set = S;
  /// Accepts values, literals and tensors; statically typed values only of an
  /// allowed element type. There is deliberately no default constructor:
  /// `{}` must not be mistaken for an input. Pass Value() to omit one.
  template <typename V>
  requires AllowedBy<V, S> In(const V& v)
      : Value(static_cast<Value>(v)) {}  // NOLINT: inputs convert
};

/// A variadic input: `{a, b}` (each element checked like In) or a
/// std::vector<Value> built at run time (checked when the node is built).
template <typename InType>
class ValueList {
 public:
  /// An empty list.
  ValueList() = default;
  /// A braced list of inputs.
  ValueList(std::initializer_list<InType> values) : values_(values.begin(), values.end()) {}
  /// Values collected at run time.
  ValueList(std::vector<Value> values) : values_(std::move(values)) {}  // NOLINT: converts
  /// Values collected at run time.
  ValueList(std::span<const Value> values) : values_(values.begin(), values.end()) {}  // NOLINT

  /// The values, in order.
  const std::vector<Value>& values() const { return values_; }

 private:
  std::vector<Value> values_;
};

/// A string usable as a template argument, so that Required<T, "axis"> names
/// its attribute in compiler errors.
template <size_t N>
struct FixedString {
  /// From a string literal.
  constexpr FixedString(const char (&s)[N]) {  // NOLINT: literal converts
    for (size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  char chars[N];  ///< The characters, NUL-terminated.
};

/// Tag for the schema default of an attribute (see AttrField).
struct SchemaDefault {
  explicit SchemaDefault() = default;
};
/// The SchemaDefault tag.
inline constexpr SchemaDefault kSchemaDefault{};

/// The element type of an attribute list type (std::vector<E>); for scalar
/// attribute types a type nothing converts from, so that the list
/// constructor of AttrField drops out.
template <typename T>
struct ListElement {
  /// Nothing converts to this.
  struct None {
    None() = delete;
  };
  using type = None;                      ///< The element type.
  static constexpr bool is_list = false;  ///< True for list attribute types.
};
/// The element type of a list attribute.
template <typename E>
struct ListElement<std::vector<E>> {
  using type = E;                        ///< The element type.
  static constexpr bool is_list = true;  ///< True for list attribute types.
};

/// True when a value of type U may be assigned to an attribute of type T.
/// Integers go to int attributes (DataType too, for `.to`), any number to a
/// float attribute, string-likes to strings; everything else must match.
template <typename T, typename U>
concept AttrAssignable =
    (std::is_same_v<T, int64_t> && (std::is_integral_v<std::remove_cvref_t<U>> ||
                                    std::is_same_v<std::remove_cvref_t<U>, DataType>)) ||
    (std::is_same_v<T, float> && std::is_arithmetic_v<std::remove_cvref_t<U>>) ||
    (std::is_same_v<T, std::string> && std::is_convertible_v<U, std::string_view>) ||
    (!std::is_arithmetic_v<T> && !std::is_same_v<T, std::string> && std::is_convertible_v<U, T>);

/// One attribute of an operator call: absent, a value, or (later, inside a
/// function body) a reference to an attribute of the enclosing function.
/// A field holding its schema default is not written to the node, as in ONNX
/// Script: a node carries the attributes its author set.
template <typename T>
class AttrField {
 public:
  /// The attribute's C++ value type.
  using value_type = T;

  /// Absent: the attribute is not written.
  AttrField() = default;
  /// The schema's default; documents the default and is not written to the node.
  AttrField(SchemaDefault, T value) : value_(std::move(value)), is_default_(true) {}
  /// A value the caller set.
  template <typename U>
  requires AttrAssignable<T, U> AttrField(U&& value)
      : value_(convert(std::forward<U>(value))) {}  // NOLINT: values convert
  /// A list value the caller set: `.perm = {1, 0}`.
  AttrField(std::initializer_list<typename ListElement<T>::type> values) requires
      ListElement<T>::is_list : value_(T(values)) {}

  /// A script's attribute parameter (Attr<T>): while tracing, a reference to
  /// the enclosing function's attribute (ONNX ref_attr_name); when eager, its
  /// value. The Attr must outlive the call, as a lambda parameter does.
  template <typename A>
  requires requires(const A& a) {
    { a.is_reference() } -> std::same_as<bool>;
    { a.reference_name() } -> std::convertible_to<std::string_view>;
    { a.value() } -> std::convertible_to<const T&>;
  }
  AttrField(const A& attr) {  // NOLINT: script attributes convert
    if (attr.is_reference()) {
      reference_ = attr.reference_name();
    } else {
      value_ = attr.value();
    }
  }

  /// An attribute that refers to the enclosing function's attribute `name`
  /// (ONNX ref_attr_name). `name` must outlive the call.
  static AttrField reference(std::string_view name) {
    AttrField f;
    f.reference_ = name;
    return f;
  }

  /// True when a value (set or default) is held.
  bool has_value() const { return value_.has_value(); }
  /// The value; requires has_value().
  const T& value() const { return *value_; }
  /// True when the value is the schema default, not set by the caller.
  bool is_default() const { return is_default_; }
  /// The referenced function attribute, or empty.
  std::string_view reference_name() const { return reference_; }

 private:
  template <typename U>
  static T convert(U&& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      return std::string(std::string_view(value));
    } else if constexpr (std::is_arithmetic_v<T>) {
      return static_cast<T>(value);
    } else {
      return T(std::forward<U>(value));
    }
  }

  std::optional<T> value_;
  bool is_default_ = false;
  std::string_view reference_;
};

/// A required attribute. It has no default constructor, so an Attributes
/// aggregate that leaves it out does not compile; the error names `Name`.
template <typename T, FixedString Name>
class Required : public AttrField<T> {
 public:
  using AttrField<T>::AttrField;
  /// Deleted: this attribute is required (see the operator's documentation).
  Required() = delete;
  /// The attribute's name.
  static constexpr std::string_view name() { return Name.chars; }
};

/// Appends `field` to `out` as attribute `name` when the caller set it (or it
/// refers to a function attribute). One overload per ONNX attribute type.
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<float>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<int64_t>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::string>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<Tensor>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<Graph>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<ir::SparseTensor>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<ir::Type>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<float>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<int64_t>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<std::string>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<Tensor>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<Graph>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<ir::SparseTensor>>& field);
void add_attribute(std::vector<ir::Attribute>& out, std::string_view name,
                   const AttrField<std::vector<ir::Type>>& field);

/// State shared by every generated operator object: the version of the opset
/// namespace it was taken from (recorded as the graph's opset import) and, for
/// operators with variadic outputs, an explicit output count.
class OpBase {
 public:
  /// An operator object of opset `opset_version`.
  constexpr explicit OpBase(int64_t opset_version) : opset_(opset_version) {}
  /// The opset version recorded on nodes this object builds.
  constexpr int64_t opset_version() const { return opset_; }
  /// The explicit output count, 0 when the count is deduced.
  constexpr size_t requested_outputs() const { return num_outputs_; }

 protected:
  int64_t opset_;           ///< Opset version of the namespace.
  size_t num_outputs_ = 0;  ///< Explicit output count; 0 to deduce.
};

/// Throws Error: `values` has `actual` elements where `expected` were unpacked.
[[noreturn]] void throw_unpack_mismatch(size_t expected, size_t actual);

}  // namespace detail

template <size_t N>
std::array<Value, N> unpack(const std::vector<Value>& values) {
  if (values.size() != N) detail::throw_unpack_mismatch(N, values.size());
  std::array<Value, N> result;
  for (size_t i = 0; i < N; ++i) result[i] = values[i];
  return result;
}

}  // namespace onnxscript
