// Selu: Y = gamma * X for X > 0, gamma * alpha * (e^X - 1) otherwise. Selu-6
// defaults to the float values of the Selu paper's constants; Selu-1 declared
// them rounded (1.6732 and 1.0507).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void selu_kernel(KernelContext& ctx) {
  const bool v1 = ctx.version() < 6;
  const float alpha = ctx.attr_float("alpha", v1 ? 1.6732f : 1.67326319217681884765625f);
  const float gamma = ctx.attr_float("gamma", v1 ? 1.0507f : 1.05070102214813232421875f);
  run_unary<kFloatTypes>(ctx, [alpha, gamma]<typename C>(C x) -> C {
    return x > C(0) ? C(gamma) * x : C(gamma) * (C(alpha) * std::expm1(x));
  });
}
}  // namespace

void register_activation_selu(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 6, 22}) registry.add("", "Selu", v, selu_kernel);
}

}  // namespace onnxscript::eval
