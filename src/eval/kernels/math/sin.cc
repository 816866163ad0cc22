// Sin: Y = sin(X) element-wise (radians).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void sin_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::sin(x); });
}
}  // namespace

void register_math_sin(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Sin", v, sin_kernel);
}

}  // namespace onnxscript::eval
