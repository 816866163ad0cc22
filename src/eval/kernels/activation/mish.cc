// Mish: Y = X * tanh(softplus(X)) (opset 18; softplus computed stably as in
// Softplus).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void mish_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
    return x * std::tanh((x > C(0) ? x : C(0)) + std::log1p(std::exp(-std::fabs(x))));
  });
}
}  // namespace

void register_activation_mish(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {18, 22}) registry.add("", "Mish", v, mish_kernel);
}

}  // namespace onnxscript::eval
