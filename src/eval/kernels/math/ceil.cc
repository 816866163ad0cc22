// Ceil: Y = the smallest integer not below X, element-wise (NaN and infinities pass through).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void ceil_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::ceil(x); });
}
}  // namespace

void register_math_ceil(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Ceil", v, ceil_kernel);
}

}  // namespace onnxscript::eval
