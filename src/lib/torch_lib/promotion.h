#pragma once
// PyTorch's type promotion for the torchlib functions of the newer families
// (unary, binary, activations, reductions, shapes): ONNX operators want
// operands of one element type, where PyTorch computes a common one. Only
// what is known while exporting can be promoted; a traced operand of
// unknown element type is left as it is (ONNX then checks the types).

#include <optional>
#include <utility>

#include "onnxscript/onnxscript.h"

namespace onnxscript::torch_lib {

/// True when `v` is a tensor known to hold integers or booleans.
bool has_integral_dtype(const Value& v);

/// True when `v` is a tensor known to hold booleans.
bool has_bool_dtype(const Value& v);

/// `v` as float32 when it holds integers or booleans: what PyTorch computes
/// for the operators that always give floating point (sqrt, exp, sin, ...).
Value floating_or_float32(Value v);

/// PyTorch's result type of `a` op `b` when it can be told: a float literal
/// with an integer tensor gives float32 (the default dtype), an int literal
/// takes the tensor's type, two tensors of one category (bool < integer <
/// floating) take the wider type unless one of them is 0-D, a tensor of a
/// higher category wins. std::nullopt when a type is not known.
std::optional<DataType> result_type(const Value& a, const Value& b);

/// `a` and `b` cast to result_type(a, b) where they differ from it (a
/// literal stays a literal: it takes the type of the tensor it meets).
std::pair<Value, Value> promote(Value a, Value b);

/// A 0-D tensor of `type` holding `x` (for literals that meet no tensor).
Value scalar_of(DataType type, double x);

}  // namespace onnxscript::torch_lib
