// Less: C = (A < B) element-wise with numpy broadcasting (opset 7+; opset 1
// has the legacy `broadcast`/`axis` attributes). Comparisons with NaN are false.
// Opset 9 added the integer types.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void less_kernel(KernelContext& ctx) {
  run_binary<kNumericTypes, true>(ctx, [](const auto& a, const auto& b) { return a < b; });
}
}  // namespace

void register_logic_less(KernelRegistry& registry) {
  for (int64_t v : {1, 7, 9, 13}) registry.add("", "Less", v, less_kernel);
}

}  // namespace onnxscript::eval
