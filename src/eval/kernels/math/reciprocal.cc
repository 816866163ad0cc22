// Reciprocal: Y = 1 / X element-wise (1/0 is inf, as IEEE division gives).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void reciprocal_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return decltype(x)(1) / x; });
}
}  // namespace

void register_math_reciprocal(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Reciprocal", v, reciprocal_kernel);
}

}  // namespace onnxscript::eval
