// LessOrEqual: C = (A <= B) element-wise with numpy broadcasting. Comparisons
// with NaN are false.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void less_or_equal_kernel(KernelContext& ctx) {
  run_binary<kNumericTypes, true>(ctx, [](const auto& a, const auto& b) { return a <= b; });
}
}  // namespace

void register_logic_less_or_equal(KernelRegistry& registry) {
  for (int64_t v : {12, 16}) registry.add("", "LessOrEqual", v, less_or_equal_kernel);
}

}  // namespace onnxscript::eval
