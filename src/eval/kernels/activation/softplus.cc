// Softplus: Y = ln(1 + e^X), computed as max(X, 0) + ln(1 + e^-|X|) so that
// large inputs neither overflow nor lose precision.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void softplus_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C {
    return (x > C(0) ? x : C(0)) + std::log1p(std::exp(-std::fabs(x)));
  });
}
}  // namespace

void register_activation_softplus(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "Softplus", v, softplus_kernel);
}

}  // namespace onnxscript::eval
