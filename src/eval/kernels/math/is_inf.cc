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

void register_math_is_inf(KernelRegistry& registry) { registry.add("", "IsInf", 10, is_inf); }

}  // namespace onnxscript::eval
