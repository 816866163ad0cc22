#pragma once
// Helpers the torchlib functions share: dimension arithmetic, rank
// requirements with messages naming the operator, and small constants.

#include <cstdint>
#include <string_view>
#include <vector>

#include "onnxscript/onnxscript.h"
#include "onnxscript/torch_lib/ops.h"

namespace onnxscript::torch_lib {

namespace op = onnxscript::opset18;

/// The rank of `v`; throws TypeError naming `aten_op` when it is not known
/// while exporting (the function needs it to choose its ONNX).
int64_t require_rank(const Value& v, std::string_view aten_op);

/// The static size of `v` along `axis`; throws TypeError naming `aten_op`
/// when the shape, or that dimension, is not known while exporting.
int64_t require_size(const Value& v, int64_t axis, std::string_view aten_op);

/// `dim` made non-negative for a tensor of `rank` (PyTorch's wrap-around);
/// throws TypeError when it is out of range.
int64_t wrap_dim(int64_t dim, int64_t rank, std::string_view aten_op);

/// A 1-D int64 constant.
Value int64s(const std::vector<int64_t>& values);

/// True when `v` is a literal (or a concrete one-element tensor) equal to `x`.
bool is_known_scalar(const Value& v, double x);

/// True for the floating point element types (float, double, float16, bfloat16).
bool is_floating(DataType t);

}  // namespace onnxscript::torch_lib
