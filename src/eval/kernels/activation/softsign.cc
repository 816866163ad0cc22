// Softsign: Y = X / (1 + |X|).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void softsign_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, []<typename C>(C x) -> C { return x / (C(1) + std::fabs(x)); });
}
}  // namespace

void register_activation_softsign(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {1, 22}) registry.add("", "Softsign", v, softsign_kernel);
}

}  // namespace onnxscript::eval
