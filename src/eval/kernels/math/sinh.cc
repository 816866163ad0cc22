// Sinh: Y = sinh(X) element-wise.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void sinh_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::sinh(x); });
}
}  // namespace

void register_math_sinh(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "Sinh", v, sinh_kernel);
}

}  // namespace onnxscript::eval
