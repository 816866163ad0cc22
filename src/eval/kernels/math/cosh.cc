// Cosh: Y = cosh(X) element-wise.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void cosh_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::cosh(x); });
}
}  // namespace

void register_math_cosh(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "Cosh", v, cosh_kernel);
}

}  // namespace onnxscript::eval
