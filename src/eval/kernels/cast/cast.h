#pragma once
// The element conversion behind Cast and CastLike, for other kernels (and the
// optimizer) that need ONNX's casting rules.

#include "onnxscript/eval/kernel.h"
#include "onnxscript/support/float8.h"

namespace onnxscript::eval {

/// `input` converted to element type `to` by the rules of ONNX Cast (see
/// cast.cc): numbers, bool, strings, float16/bfloat16, the float8 types
/// (honouring `saturate`), float8e8m0 (rounding by `round_mode`), float4e2m1,
/// int4/uint4 and int2/uint2. Fails the kernel for complex types and strings
/// that are not numbers. Casting to the same type returns `input` itself
/// (sharing storage).
Tensor cast_tensor(const KernelContext& ctx, const Tensor& input, DataType to, bool saturate,
                   E8M0Round round_mode = E8M0Round::kUp);

/// The `round_mode` attribute of Cast and CastLike ("up" when absent); fails
/// the kernel for other text.
E8M0Round e8m0_round_mode(const KernelContext& ctx);

}  // namespace onnxscript::eval
