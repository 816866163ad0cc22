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
  registry.add("", "Softsign", 1, softsign_kernel);
}

}  // namespace onnxscript::eval
