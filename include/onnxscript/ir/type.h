#pragma once
/// \file
/// Types of ONNX values: tensors, sparse tensors, sequences, optionals, maps
/// and opaque types, with shapes whose dimensions are static, symbolic or unknown.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/data_type.h"

namespace onnxscript::ir {

/// One dimension of a shape: a known size, a named symbol ("N"), or unknown.
class Dim {
 public:
  /// An unknown dimension.
  Dim() = default;
  /// A static dimension. Negative sizes are representable (so that bad input
  /// can be reported rather than lost) but are_valid() rejects them.
  Dim(int64_t value) : kind_(Kind::kStatic), value_(value) {}  // NOLINT: implicit by design
  /// A symbolic dimension.
  Dim(std::string symbol) : kind_(Kind::kSymbolic), symbol_(std::move(symbol)) {}  // NOLINT
  /// A symbolic dimension.
  Dim(const char* symbol) : Dim(std::string(symbol)) {}  // NOLINT

  /// True for a known size.
  bool is_static() const { return kind_ == Kind::kStatic; }
  /// True for a named symbol.
  bool is_symbolic() const { return kind_ == Kind::kSymbolic; }
  /// True when neither size nor symbol is known.
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  /// The size; meaningful only when is_static().
  int64_t value() const { return value_; }
  /// The symbol; empty unless is_symbolic().
  const std::string& symbol() const { return symbol_; }

  /// ONNX dimension denotation (e.g. "DATA_BATCH"); usually empty.
  std::string denotation;

  bool operator==(const Dim& other) const = default;

 private:
  enum class Kind : uint8_t { kUnknown, kStatic, kSymbolic };
  Kind kind_ = Kind::kUnknown;
  int64_t value_ = 0;
  std::string symbol_;
};

/// A shape of known rank. An unknown rank is an absent Shape (std::nullopt).
using Shape = std::vector<Dim>;

/// What kind of value a Type describes.
enum class TypeKind : uint8_t {
  kUnspecified,   ///< A TypeProto with nothing set.
  kTensor,        ///< A dense tensor.
  kSparseTensor,  ///< A sparse tensor.
  kSequence,      ///< A sequence of values of one element type.
  kOptional,      ///< A value that may be absent.
  kMap,           ///< A map from a scalar key type to values.
  kOpaque,        ///< An opaque type named by domain and name.
};

/// The type of a value. Small and copyable; nested types are shared.
struct Type {
  TypeKind kind = TypeKind::kUnspecified;
  /// Element type of a (sparse) tensor, or the key type of a map.
  DataType elem_type = DataType::kUndefined;
  /// Shape of a (sparse) tensor; nullopt when the rank is unknown.
  std::optional<Shape> shape;
  /// Element type of a sequence or optional, value type of a map.
  std::shared_ptr<const Type> element;
  /// Domain and name of an opaque type.
  std::string opaque_domain, opaque_name;
  /// ONNX type denotation; usually empty.
  std::string denotation;

  /// A dense tensor type.
  static Type tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  /// A sparse tensor type.
  static Type sparse_tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  /// A sequence of `elem`.
  static Type sequence(Type elem);
  /// An optional `elem`.
  static Type optional(Type elem);
  /// A map from `key` to `value`.
  static Type map(DataType key, Type value);

  /// True when this is a dense tensor type.
  bool is_tensor() const { return kind == TypeKind::kTensor; }

  /// Structural equality (nested types compared by value).
  bool operator==(const Type& other) const;

  /// A readable form: "float[N,3]", "seq(int64[])", "map(string, float)".
  std::string to_string() const;
};

/// The lowest IR version needed to store values of this type (e.g. optional needs 8).
int64_t min_ir_version(const Type& type);

}  // namespace onnxscript::ir
