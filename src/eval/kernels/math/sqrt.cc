// Sqrt: Y = sqrt(X) element-wise; negative inputs give NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void sqrt_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::sqrt(x); });
}
}  // namespace

void register_math_sqrt(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Sqrt", v, sqrt_kernel);
}

}  // namespace onnxscript::eval
