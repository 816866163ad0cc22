// Asin: Y = arcsin(X) element-wise; |X| > 1 gives NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void asin_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::asin(x); });
}
}  // namespace

void register_math_asin(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {7, 22}) registry.add("", "Asin", v, asin_kernel);
}

}  // namespace onnxscript::eval
