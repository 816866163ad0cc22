// Exp: Y = e^X element-wise.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void exp_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::exp(x); });
}
}  // namespace

void register_math_exp(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Exp", v, exp_kernel);
}

}  // namespace onnxscript::eval
