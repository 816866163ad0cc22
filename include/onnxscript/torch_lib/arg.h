#pragma once
/// \file
/// One argument of an ATen operator call, as TorchScript passes it: a tensor
/// (a Value, traced or concrete), a list of tensors, a Python scalar (int,
/// float, bool), a list of ints or floats, a string, or None. The exporter
/// builds these from a TorchScript node's inputs; users calling a registered
/// overload by name build them from C++ values.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "onnxscript/script/value.h"

namespace onnxscript::torch_lib {

/// An ATen argument. Cheap to copy (Values are handles).
class Arg {
 public:
  /// The alternatives, in the order index() reports them.
  using Storage = std::variant<std::monostate, Value, std::vector<Value>, int64_t, double, bool,
                               std::vector<int64_t>, std::vector<double>, std::string>;

  /// None.
  Arg() = default;
  /// A tensor (or a 0-D tensor standing for a scalar known only at run time).
  Arg(Value value) : storage_(std::move(value)) {}  // NOLINT: implicit by design
  /// A tensor.
  Arg(const Tensor& tensor) : storage_(Value(tensor)) {}  // NOLINT
  /// A list of tensors (Tensor[]).
  Arg(std::vector<Value> values) : storage_(std::move(values)) {}  // NOLINT
  /// A Python int.
  Arg(int64_t value) : storage_(value) {}  // NOLINT
  /// A Python int.
  Arg(int value) : storage_(static_cast<int64_t>(value)) {}  // NOLINT
  /// A Python float.
  Arg(double value) : storage_(value) {}  // NOLINT
  /// A Python bool.
  Arg(bool value) : storage_(value) {}  // NOLINT
  /// An int list (int[], SymInt[]).
  Arg(std::vector<int64_t> values) : storage_(std::move(values)) {}  // NOLINT
  /// An int list.
  Arg(std::initializer_list<int64_t> values) : storage_(std::vector<int64_t>(values)) {}
  /// A float list.
  Arg(std::vector<double> values) : storage_(std::move(values)) {}  // NOLINT
  /// A string (str), for example a reduction name.
  Arg(std::string value) : storage_(std::move(value)) {}  // NOLINT
  /// A string.
  Arg(const char* value) : storage_(std::string(value)) {}  // NOLINT

  /// The held alternative.
  const Storage& storage() const { return storage_; }
  /// True for None.
  bool is_none() const { return std::holds_alternative<std::monostate>(storage_); }
  /// True for a tensor.
  bool is_tensor() const { return std::holds_alternative<Value>(storage_); }
  /// The tensor, or null.
  const Value* tensor() const { return std::get_if<Value>(&storage_); }
  /// True for an int, float or bool known now.
  bool is_static_scalar() const {
    return std::holds_alternative<int64_t>(storage_) || std::holds_alternative<double>(storage_) ||
           std::holds_alternative<bool>(storage_);
  }

  /// A readable description for messages: "Tensor traced float[N,3] 'x'",
  /// "int 3", "int[] [1, 2]", "None".
  std::string describe() const;

 private:
  Storage storage_;
};

}  // namespace onnxscript::torch_lib
