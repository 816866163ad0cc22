// ThresholdedRelu: Y = X for X > alpha, 0 otherwise (alpha defaults to 1).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void thresholded_relu_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  run_unary<kFloatTypes>(ctx, [alpha]<typename C>(C x) -> C { return x > C(alpha) ? x : C(0); });
}
}  // namespace

void register_activation_thresholded_relu(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {10, 22}) registry.add("", "ThresholdedRelu", v, thresholded_relu_kernel);
}

}  // namespace onnxscript::eval
