// Neg: Y = -X element-wise. Signed integers wrap (-INT_MIN is INT_MIN, as in
// numpy); opset 6 added the signed integer types.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void neg(KernelContext& ctx) {
  run_unary<kSignedNumericTypes>(ctx, [](auto x) { return wrap_neg(x); });
}
}  // namespace

void register_math_neg(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Neg", v, neg);
}

}  // namespace onnxscript::eval
