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
  for (int64_t v : {9}) registry.add("", "Cosh", v, cosh_kernel);
}

}  // namespace onnxscript::eval
