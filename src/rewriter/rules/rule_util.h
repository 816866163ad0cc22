#pragma once
// What the default rules share: reading small constants, element-type facts
// and axis normalization.

#include <cstdint>
#include <optional>
#include <vector>

#include "onnxscript/ir/tensor.h"
#include "onnxscript/rewriter/rule.h"

namespace onnxscript::rewriter::rules {

/// The elements of an integer constant (int64 or int32), or nullopt.
std::optional<std::vector<int64_t>> int_values(const ir::Tensor* t);

/// The single element of a one-element numeric constant as a double, or nullopt.
std::optional<double> scalar_value(const ir::Tensor* t);

/// True when every value of `from` is represented exactly in `to`.
bool exactly_representable(ir::DataType from, ir::DataType to);

/// `axes` resolved against `rank` (negative ones counted from the end),
/// sorted; nullopt when one is out of range or repeats.
std::optional<std::vector<int64_t>> normalized_axes(std::vector<int64_t> axes, int64_t rank);

/// True for float16, bfloat16, float and double.
bool is_floating(ir::DataType t);

}  // namespace onnxscript::rewriter::rules
