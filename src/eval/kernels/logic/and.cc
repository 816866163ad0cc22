// And: C = A && B (logical and) on bool tensors, element-wise with numpy
// broadcasting (opset 7+; opset 1 has the legacy `broadcast`/`axis` attributes).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void and_kernel(KernelContext& ctx) {
  run_binary<TypeList<DataType::kBool>, true>(ctx, [](bool a, bool b) { return a && b; });
}
}  // namespace

void register_logic_and(KernelRegistry& registry) {
  for (int64_t v : {1, 7}) registry.add("", "And", v, and_kernel);
}

}  // namespace onnxscript::eval
