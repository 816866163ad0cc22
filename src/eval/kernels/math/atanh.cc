// Atanh: Y = arctanh(X) element-wise; |X| > 1 gives NaN, +-1 gives +-inf.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void atanh_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::atanh(x); });
}
}  // namespace

void register_math_atanh(KernelRegistry& registry) {
  // only adds bfloat16, which this kernel handles or rejects by type.
  for (int64_t v : {9, 22}) registry.add("", "Atanh", v, atanh_kernel);
}

}  // namespace onnxscript::eval
