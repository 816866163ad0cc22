// Swish (v24): Y = X * sigmoid(alpha * X) (alpha defaults to 1).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void swish_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  run_unary<kFloatTypes>(
      ctx, [alpha]<typename C>(C x) -> C { return x / (C(1) + std::exp(-C(alpha) * x)); });
}
}  // namespace

void register_activation_swish(KernelRegistry& registry) {
  // 24: the operator's first version.
  registry.add("", "Swish", 24, swish_kernel);
}

}  // namespace onnxscript::eval
