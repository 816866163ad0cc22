// Acosh: Y = arccosh(X) element-wise; X < 1 gives NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void acosh_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::acosh(x); });
}
}  // namespace

void register_math_acosh(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "Acosh", v, acosh_kernel);
}

}  // namespace onnxscript::eval
