// Elu: Y = X for X >= 0, alpha * (e^X - 1) otherwise (alpha defaults to 1).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void elu_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  run_unary<kFloatTypes>(
      ctx, [alpha]<typename C>(C x) -> C { return x < C(0) ? C(alpha) * std::expm1(x) : x; });
}
}  // namespace

void register_activation_elu(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 6, 22}) registry.add("", "Elu", v, elu_kernel);
}

}  // namespace onnxscript::eval
