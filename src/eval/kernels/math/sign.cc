// Sign: Y = 1, 0 or -1 as X is positive, zero or negative; NaN stays NaN
// (as numpy.sign).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void sign(KernelContext& ctx) {
  run_unary<kNumericTypes>(ctx, []<typename C>(C x) -> C {
    if (x > C(0)) return C(1);
    if constexpr (std::is_signed_v<C> || std::is_floating_point_v<C>)
      if (x < C(0)) return C(-1);
    return x;  // 0, -0 or NaN
  });
}
}  // namespace

void register_math_sign(KernelRegistry& registry) {
  for (int64_t v : {9, 13}) registry.add("", "Sign", v, sign);
}

}  // namespace onnxscript::eval
