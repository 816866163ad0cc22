#pragma once
// The element conversion behind Cast and CastLike, for other kernels (and the
// optimizer) that need ONNX's casting rules.

#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// `input` converted to element type `to` by the rules of ONNX Cast (see
/// cast.cc): numbers, bool, strings, float16/bfloat16, the float8 types
/// (honouring `saturate`) and int4/uint4. Fails the kernel for complex types
/// and strings that are not numbers. Casting to the same type returns
/// `input` itself (sharing storage).
Tensor cast_tensor(const KernelContext& ctx, const Tensor& input, DataType to, bool saturate);

}  // namespace onnxscript::eval
