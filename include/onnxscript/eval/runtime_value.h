#pragma once
/// \file
/// RuntimeValue: a concrete value as the evaluator sees it: a tensor, a
/// sequence, an optional, a map, or nothing (an omitted optional input).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "onnxscript/ir/tensor.h"
#include "onnxscript/ir/type.h"

namespace onnxscript::eval {

using ir::DataType;
using ir::Tensor;

class RuntimeValue;

/// The payload of an ONNX sequence value.
struct SequenceValue {
  ir::Type elem_type;               ///< Type of each element (may be kUnspecified).
  std::vector<RuntimeValue> items;  ///< The elements, in order.
};

/// The payload of an ONNX optional value.
struct OptionalValue {
  ir::Type elem_type;                         ///< Type of the contained value.
  std::shared_ptr<const RuntimeValue> value;  ///< Null when the optional is empty.
};

/// The payload of an ONNX map value: parallel 1-D key and value tensors.
struct MapValue {
  Tensor keys;    ///< 1-D, an integer or string element type.
  Tensor values;  ///< 1-D, same length as keys.
};

/// A concrete value. Cheap to copy: tensors share storage, and sequence,
/// optional and map payloads are shared and immutable.
class RuntimeValue {
 public:
  /// What the value holds.
  enum class Kind : uint8_t { kNone, kTensor, kSequence, kOptional, kMap };

  /// Nothing: an omitted optional input or output.
  RuntimeValue() = default;
  /// A tensor.
  RuntimeValue(Tensor tensor);  // NOLINT: implicit by design, tensors are the common case
  /// A sequence of `items` whose elements have type `elem_type`.
  static RuntimeValue sequence(ir::Type elem_type, std::vector<RuntimeValue> items);
  /// An optional; `value` empty means "no value".
  static RuntimeValue optional(ir::Type elem_type, std::optional<RuntimeValue> value);
  /// A map from keys[i] to values[i].
  static RuntimeValue map(Tensor keys, Tensor values);

  /// What the value holds.
  Kind kind() const { return kind_; }
  /// True for nothing (kNone).
  bool is_none() const { return kind_ == Kind::kNone; }
  /// True for a tensor.
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  /// True for a sequence.
  bool is_sequence() const { return kind_ == Kind::kSequence; }
  /// True for an optional (empty or not).
  bool is_optional() const { return kind_ == Kind::kOptional; }
  /// True for a map.
  bool is_map() const { return kind_ == Kind::kMap; }

  /// The tensor; throws TypeError when this is not a tensor.
  const Tensor& tensor() const;
  /// The sequence; throws TypeError otherwise.
  const SequenceValue& sequence() const;
  /// The optional; throws TypeError otherwise.
  const OptionalValue& optional() const;
  /// The map; throws TypeError otherwise.
  const MapValue& map() const;

  /// The value's type, as far as it can be told from the value.
  ir::Type type() const;
  /// A short description for messages: "tensor(float)[2,3]", "seq(...) of 4", "none".
  std::string describe() const;

 private:
  // One payload pointer for the non-tensor kinds (which one, kind_ says):
  // values are copied on every eager call, so each pointer costs.
  Kind kind_ = Kind::kNone;
  Tensor tensor_;
  std::shared_ptr<const void> payload_;
};

/// Why `value` does not fit `declared`, or "" when it does: the kind, the
/// element type and, with `check_shapes`, the rank and every static
/// dimension ("expected element type float, got double", "dimension 1 must
/// be 64 (float[B,64]), got shape [2,32]"). Symbolic and unknown dimensions
/// take any size. Session::run and eager calls of script functions check
/// their inputs with it.
std::string type_mismatch(const ir::Type& declared, const RuntimeValue& value,
                          bool check_shapes = true);

}  // namespace onnxscript::eval
