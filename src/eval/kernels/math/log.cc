// Log: Y = ln(X) element-wise; log(0) is -inf and negative inputs give NaN.
#include <cmath>

#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void log_kernel(KernelContext& ctx) {
  run_unary<kFloatTypes>(ctx, [](auto x) { return std::log(x); });
}
}  // namespace

void register_math_log(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13}) registry.add("", "Log", v, log_kernel);
}

}  // namespace onnxscript::eval
