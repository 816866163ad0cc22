// HardSwish: Y = X * max(0, min(1, X / 6 + 1/2)).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void hard_swish_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
    const C g = x * C(1.0 / 6.0) + C(0.5);
    return x * (g < C(0) ? C(0) : (g > C(1) ? C(1) : g));
  });
}
}  // namespace

void register_activation_hard_swish(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {14, 22}) registry.add("", "HardSwish", v, hard_swish_kernel);
}

}  // namespace onnxscript::eval
