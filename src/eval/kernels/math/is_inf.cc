// IsInf: Y[i] = true where X[i] is an infinity; `detect_positive` and
// `detect_negative` (both default 1) choose which signs count. IsInf-10 lists
// float and double; the 16-bit floats (added in opset 20) work too.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void is_inf(KernelContext& ctx) {
  const bool pos = ctx.attr_int("detect_positive", 1) != 0;
  const bool neg = ctx.attr_int("detect_negative", 1) != 0;
  run_unary<kFloatTypes, true>(ctx,
                               [pos, neg](auto x) { return std::isinf(x) && (x > 0 ? pos : neg); });
}
}  // namespace

void register_math_is_inf(KernelRegistry& registry) {
  // 20 only adds float16, bfloat16 and float8, which this kernel handles or rejects by type.
  for (int64_t v : {10, 20}) registry.add("", "IsInf", v, is_inf);
}

}  // namespace onnxscript::eval
