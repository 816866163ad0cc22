// SwiGLU (v28): Y = Swish_alpha(A) * B = A * sigmoid(alpha * A) * B, with A
// and B of the same shape (no broadcasting).
#include <cmath>

#include <fmt/format.h>

#include "eval/util/elementwise.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {
namespace {
void swiglu_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B must have the same element type");
  if (a.shape() != b.shape())
    ctx.fail(fmt::format("A {} and B {} must have the same shape", shape_string(a.shape()),
                         shape_string(b.shape())));
  const float alpha = ctx.attr_float("alpha", 1.0f);
  run_binary<kFloatTypes>(
      ctx, [alpha]<typename C>(C x, C y) -> C { return x / (C(1) + std::exp(-C(alpha) * x)) * y; });
}
}  // namespace

void register_activation_swiglu(KernelRegistry& registry) {
  // 28: the operator's first version.
  registry.add("", "SwiGLU", 28, swiglu_kernel);
}

}  // namespace onnxscript::eval
