// Atan: Y = arctan(X) element-wise.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void atan_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::atan(x); });
}
}  // namespace

void register_math_atan(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Atan", v, atan_kernel);
}

}  // namespace onnxscript::eval
