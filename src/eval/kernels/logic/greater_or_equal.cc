// GreaterOrEqual: C = (A >= B) element-wise with numpy broadcasting.
// Comparisons with NaN are false.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void greater_or_equal_kernel(KernelContext& ctx) {
  run_binary<kNumericTypes, true>(ctx, [](const auto& a, const auto& b) { return a >= b; });
}
}  // namespace

void register_logic_greater_or_equal(KernelRegistry& registry) {
  for (int64_t v : {12, 16}) registry.add("", "GreaterOrEqual", v, greater_or_equal_kernel);
}

}  // namespace onnxscript::eval
