// Relu: Y = max(0, X) element-wise; NaN stays NaN. Opset 14 added signed integers.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void relu_kernel(KernelContext& ctx) {
  run_unary<kSignedNumericTypes>(ctx, []<typename C>(C x) -> C { return x < C(0) ? C(0) : x; });
}
}  // namespace

void register_activation_relu(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 13, 14}) registry.add("", "Relu", v, relu_kernel);
}

}  // namespace onnxscript::eval
