// Erf: Y = erf(X) element-wise. Erf-9 also accepts integers (computed in
// double and truncated, so only 0 and +-1 come out); Erf-13 lists float types.
#include <cmath>

#include "eval/util/elementwise.h"
#include "eval/util/vector_math.h"
#include "eval/util/vector_unary.h"

namespace onnxscript::eval {
namespace {
void erf(KernelContext& ctx) {
  if (run_unary_float(ctx, vmath::erf)) return;
  run_unary<kNumericTypes>(ctx, []<typename C>(C x) -> C {
    if constexpr (std::is_floating_point_v<C>)
      return std::erf(x);
    else
      return static_cast<C>(std::erf(static_cast<double>(x)));
  });
}
}  // namespace

void register_math_erf(KernelRegistry& registry) {
  for (int64_t v : {9, 13}) registry.add("", "Erf", v, erf);
}

}  // namespace onnxscript::eval
