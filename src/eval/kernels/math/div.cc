// Div: C = A / B element-wise with numpy broadcasting (opset 7+); opsets 1 and
// 6 use the legacy `broadcast`/`axis` attributes instead. Integer division
// truncates toward zero (as C and ONNX Runtime do); an integer divided by
// zero gives 0 rather than undefined behaviour, and INT_MIN / -1 wraps.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void div(KernelContext& ctx) {
  run_binary<kNumericTypes>(ctx, [](auto a, auto b) { return safe_div(a, b); });
}
}  // namespace

void register_math_div(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 7, 13, 14}) registry.add("", "Div", v, div);
}

}  // namespace onnxscript::eval
