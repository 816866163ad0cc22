// Asinh: Y = arcsinh(X) element-wise.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void asinh_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::asinh(x); });
}
}  // namespace

void register_math_asinh(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "Asinh", v, asinh_kernel);
}

}  // namespace onnxscript::eval
