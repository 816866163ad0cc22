// Celu: Y = max(0, X) + min(0, alpha * (e^(X/alpha) - 1)) (alpha defaults to
// 1). The schema allows float only; the other float types compute the same way.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void celu_kernel(KernelContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  run_unary<kFloatTypes>(ctx, [alpha]<typename C>(C x) -> C {
    const C neg = C(alpha) * std::expm1(x / C(alpha));
    return (x > C(0) ? x : C(0)) + (neg < C(0) ? neg : C(0));
  });
}
}  // namespace

void register_activation_celu(KernelRegistry& registry) {
  // 28 only adds float16, double and bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {12, 28}) registry.add("", "Celu", v, celu_kernel);
}

}  // namespace onnxscript::eval
