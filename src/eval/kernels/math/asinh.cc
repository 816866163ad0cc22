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
  for (int64_t v : {9}) registry.add("", "Asinh", v, asinh_kernel);
}

}  // namespace onnxscript::eval
