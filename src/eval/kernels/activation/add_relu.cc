// onnxscript.internal.AddRelu: Y = Relu(A + B), numpy broadcasting, in one
// pass over Y: a residual connection and its activation (resnet's blocks end
// in Add then Relu). Not an ONNX operator: the Session's planner
// (eval/fusion.cc) makes these steps from an Add whose output only a Relu
// reads. Integers wrap on overflow as Add's do; NaN stays NaN as in Relu.
#include "eval/util/elementwise.h"

namespace onnxscript::eval {
namespace {
void add_relu(KernelContext& ctx) {
  // Numpy broadcasting from version 1 on (Add's legacy attributes are never fused).
  constexpr int64_t kNumpyBroadcastFrom = 1;
  run_binary<kSignedNumericTypes>(
      ctx,
      [](auto a, auto b) {
        const auto sum = wrap_add(a, b);
        return sum < decltype(sum)(0) ? decltype(sum)(0) : sum;
      },
      kNumpyBroadcastFrom);
}
}  // namespace

void register_activation_add_relu(KernelRegistry& registry) {
  registry.add("onnxscript.internal", "AddRelu", 1, add_relu);
}

}  // namespace onnxscript::eval
