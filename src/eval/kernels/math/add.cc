// Add: C = A + B element-wise with numpy broadcasting (opset 7+); opsets 1 and
// 6 use the legacy `broadcast`/`axis` attributes instead. Integers wrap on
// overflow. Types widen over the versions (14 adds 8/16-bit integers).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void add(KernelContext& ctx) {
  run_binary<kNumericTypes>(ctx, [](auto a, auto b) { return wrap_add(a, b); });
}
}  // namespace

void register_math_add(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 7, 13, 14}) registry.add("", "Add", v, add);
}

}  // namespace onnxscript::eval
