#pragma once
/// \file
/// The one entry point through which every generated operator function (and
/// every C++ operator overload) records a node or runs a kernel.
/// Not for direct use: call the typed functions in onnxscript::opsetN.

#include <cstdint>
#include <source_location>
#include <span>
#include <string_view>
#include <vector>

#include "onnxscript/ir/attribute.h"
#include "onnxscript/ir/small_vector.h"
#include "onnxscript/script/value.h"

namespace onnxscript {

/// An error found while a graph is built or a script runs eagerly: bad input
/// types, a traced value used where a concrete one is needed, and so on. The
/// message ends with the user's file and line.
class ScriptError : public Error {
 public:
  using Error::Error;
};

namespace detail {

/// A type parameter of an operator schema ("T") and the types it allows,
/// spelled as ONNX does: "tensor(float)", "seq(tensor(int64))", ...
struct TypeParam {
  std::string_view name;                      ///< e.g. "T".
  std::span<const std::string_view> allowed;  ///< Allowed type strings.
  /// The tensor types among `allowed`, bit `int(DataType)` set for each.
  uint64_t tensor_mask = 0;
};

/// A formal input of an operator schema.
struct FormalInput {
  std::string_view name;  ///< e.g. "A".
  int type_param;         ///< Index into OpSignature::type_params, or -1 for a fixed type string.
  std::string_view fixed_type;  ///< The type string when type_param is -1 (e.g. "tensor(int64)").
  bool optional;                ///< May be omitted.
  bool variadic;                ///< Takes a list (last formal only).
};

/// Static facts about one operator version, generated from its schema.
struct OpSignature {
  std::string_view domain;                 ///< "" for ai.onnx.
  std::string_view name;                   ///< Operator name.
  int64_t since_version;                   ///< Schema version.
  std::span<const FormalInput> inputs;     ///< Formal inputs in order.
  std::span<const TypeParam> type_params;  ///< Type constraints.
};

/// What call_op returns: the node's outputs, kept inline for the usual one to
/// four, so that an operator call allocates nothing to return them.
class OpOutputs {
 public:
  /// No outputs.
  OpOutputs() = default;
  /// Makes room for `n` outputs.
  void reserve(size_t n) {
    if (n > kInline) spill(n);
  }
  /// Appends an output.
  void push_back(Value v) {
    if (!spilled_ && size_ < kInline) {
      inline_[size_++] = std::move(v);
      return;
    }
    if (!spilled_) spill(size_ + 1);
    heap_.push_back(std::move(v));
    ++size_;
  }
  /// Number of outputs.
  size_t size() const { return size_; }
  /// Output `i` (unchecked).
  Value& operator[](size_t i) { return data()[i]; }
  /// Output `i` (unchecked).
  const Value& operator[](size_t i) const { return data()[i]; }
  Value* begin() { return data(); }
  Value* end() { return data() + size_; }
  const Value* begin() const { return data(); }
  const Value* end() const { return data() + size_; }

 private:
  static constexpr size_t kInline = 4;
  Value* data() { return spilled_ ? heap_.data() : inline_; }
  const Value* data() const { return spilled_ ? heap_.data() : inline_; }
  // Moves the inline outputs to the heap, which then holds them all.
  void spill(size_t capacity) {
    if (spilled_) return heap_.reserve(capacity);
    heap_.reserve(capacity);
    for (size_t i = 0; i < size_; ++i) heap_.push_back(std::move(inline_[i]));
    spilled_ = true;
  }

  Value inline_[kInline];
  std::vector<Value> heap_;
  size_t size_ = 0;
  bool spilled_ = false;
};

/// Records a node (when any input is traced) or runs the kernel (when all
/// inputs are concrete or literals). `inputs` is the flattened actual input
/// list (a variadic formal contributes several); omitted optional inputs are
/// Value(). Literals take the element type of the values that share their
/// type parameter. `opset_version` is the version of the opset namespace the
/// caller used (it becomes the graph's opset import).
OpOutputs call_op(const OpSignature& signature, int64_t opset_version,
                  std::span<const Value> inputs, std::vector<ir::Attribute> attributes,
                  size_t num_outputs, std::source_location location);

/// The signature of `name` in `domain` at its latest version no later than
/// `opset_version`, from the generated tables; null when there is none.
/// C++ operator overloads use it, since they cannot name an opset namespace.
const OpSignature* find_signature(std::string_view domain, std::string_view name,
                                  int64_t opset_version);

/// The ai.onnx opset that operator overloads use: the version the innermost
/// trace already imports, or 17 (the newest this build knows) otherwise.
int64_t default_opset_version();

/// "file:line" of a source location, for messages.
std::string where(const std::source_location& location);

}  // namespace detail
}  // namespace onnxscript
