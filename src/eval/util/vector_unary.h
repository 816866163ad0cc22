#pragma once
// The float fast path of the element-wise kernels whose math lives in
// vector_math.h: one array call per range of the intra-op split instead of a
// libm call per element.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {

/// When input 0 is float, sets output 0 to fn(input 0) (fn has
/// vector_math.h's array signature, (const float* x, float* y, int64_t n))
/// and returns true; otherwise does nothing and returns false, and the
/// kernel takes its generic path.
template <typename Fn>
bool run_unary_float(KernelContext& ctx, Fn fn) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kFloat) return false;
  Tensor y = Tensor::uninitialized(DataType::kFloat, x.shape());  // fn writes every element
  const float* in = x.data<float>();
  float* out = y.data<float>();
  elementwise_ranges(x.numel(),
                     [&](int64_t begin, int64_t end) { fn(in + begin, out + begin, end - begin); });
  ctx.set_output(0, y);
  return true;
}

}  // namespace onnxscript::eval
