#pragma once
// C++ literals (`0.5`, `1`, `true`) become tensors only when an operator or a
// control-flow construct needs them, in the element type the context decides.
// Operator calls and control flow share these two steps.

#include "onnxscript/ir/tensor.h"
#include "onnxscript/script/value.h"

namespace onnxscript::detail {

/// The element type a literal takes when nothing beside it says otherwise:
/// int64 for an integer, bool for a bool, float for a floating-point number
/// (float rather than double, as in ONNX Script).
DataType default_literal_type(const Value& literal);

/// A rank-0 tensor of `dtype` holding the literal. An int64 is taken from the
/// integer itself (a double cannot hold every int64); the other common types
/// convert directly; the rest (float8, int4, ...) go through the Cast kernel.
/// Throws TypeError when the literal cannot become a `dtype` tensor (a string
/// or complex tensor, say).
Tensor literal_tensor(const Value& literal, DataType dtype);

}  // namespace onnxscript::detail
