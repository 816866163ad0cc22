// Tanh: Y = tanh(X) element-wise.
#include <cmath>

#include "eval/util/elementwise.h"
#include "eval/util/vector_math.h"
#include "eval/util/vector_unary.h"

namespace onnxscript::eval {
namespace {
void tanh_kernel(KernelContext& ctx) {
  if (run_unary_float(ctx, vmath::tanh)) return;
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::tanh(x); });
}
}  // namespace

void register_math_tanh(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Tanh", v, tanh_kernel);
}

}  // namespace onnxscript::eval
