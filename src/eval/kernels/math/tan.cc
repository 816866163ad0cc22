// Tan: Y = tan(X) element-wise (radians).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void tan_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::tan(x); });
}
}  // namespace

void register_math_tan(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Tan", v, tan_kernel);
}

}  // namespace onnxscript::eval
