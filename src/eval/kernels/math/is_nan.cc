// IsNaN: Y[i] = true where X[i] is NaN (bool output).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void is_nan(KernelContext& ctx) {
  run_unary<kFloatTypes, true>(ctx, [](auto x) { return std::isnan(x); });
}
}  // namespace

void register_math_is_nan(KernelRegistry& registry) {
  // 20 only adds the float8 types, which this kernel handles or rejects by type.
  for (int64_t v : {9, 13, 20}) registry.add("", "IsNaN", v, is_nan);
}

}  // namespace onnxscript::eval
