// Acos: Y = arccos(X) element-wise; |X| > 1 gives NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void acos_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::acos(x); });
}
}  // namespace

void register_math_acos(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Acos", v, acos_kernel);
}

}  // namespace onnxscript::eval
