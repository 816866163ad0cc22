// LeakyRelu: Y = X for X >= 0, alpha * X otherwise (alpha defaults to 0.01).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void leaky_relu_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 0.01f);
  run_unary<kFloatTypes>(ctx,
                         [alpha]<typename C>(C x) -> C { return x < C(0) ? C(alpha) * x : x; });
}
}  // namespace

void register_activation_leaky_relu(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 16}) registry.add("", "LeakyRelu", v, leaky_relu_kernel);
}

}  // namespace onnxscript::eval
