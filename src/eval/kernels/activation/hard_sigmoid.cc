// HardSigmoid: Y = max(0, min(1, alpha * X + beta)) (alpha 0.2, beta 0.5).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void hard_sigmoid_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 0.2f);
  const float beta = ctx.attr_float("beta", 0.5f);
  run_unary<kFloatTypes>(ctx, [alpha, beta]<typename C>(C x) -> C {
    const C y = C(alpha) * x + C(beta);
    return y < C(0) ? C(0) : (y > C(1) ? C(1) : y);
  });
}
}  // namespace

void register_activation_hard_sigmoid(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 6, 22}) registry.add("", "HardSigmoid", v, hard_sigmoid_kernel);
}

}  // namespace onnxscript::eval
