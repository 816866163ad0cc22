// Floor: Y = the largest integer not above X, element-wise (NaN and infinities pass through).
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void floor_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::floor(x); });
}
}  // namespace

void register_math_floor(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Floor", v, floor_kernel);
}

}  // namespace onnxscript::eval
