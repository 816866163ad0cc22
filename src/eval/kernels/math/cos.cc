// Cos: Y = cos(X) element-wise (radians).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void cos_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::cos(x); });
}
}  // namespace

void register_math_cos(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Cos", v, cos_kernel);
}

}  // namespace onnxscript::eval
