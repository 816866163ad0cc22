// Exp: Y = e^X element-wise.
#include <cmath>

#include "eval/util/elementwise.h"
#include "eval/util/vector_math.h"
#include "eval/util/vector_unary.h"

namespace onnxscript::eval {
namespace {
void exp_kernel(KernelContext& ctx) {
  if (run_unary_float(ctx, vmath::exp)) return;
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::exp(x); });
}
}  // namespace

void register_math_exp(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Exp", v, exp_kernel);
}

}  // namespace onnxscript::eval
