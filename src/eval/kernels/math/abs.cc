// Abs: Y = |X| element-wise. |INT_MIN| wraps to INT_MIN (as in numpy);
// unsigned inputs pass through. Opset 6 added the integer types.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void abs_kernel(KernelContext& ctx) {
  run_unary<kNumericTypes>(ctx, []<typename C>(C x) -> C {
    if constexpr (std::is_floating_point_v<C>)
      return std::fabs(x);
    else if constexpr (std::is_signed_v<C>)
      return x < 0 ? wrap_neg(x) : x;
    else
      return x;
  });
}
}  // namespace

void register_math_abs(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Abs", v, abs_kernel);
}

}  // namespace onnxscript::eval
