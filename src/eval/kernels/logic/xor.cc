// Xor: C = A != B (logical exclusive or) on bool tensors, element-wise with numpy
// broadcasting (opset 7+; opset 1 has the legacy `broadcast`/`axis` attributes).
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void xor_kernel(KernelContext& ctx) {
  run_binary<TypeList<DataType::kBool>, true>(ctx, [](bool a, bool b) { return a != b; });
}
}  // namespace

void register_logic_xor(KernelRegistry& registry) {
  for (int64_t v : {1, 7}) registry.add("", "Xor", v, xor_kernel);
}

}  // namespace onnxscript::eval
