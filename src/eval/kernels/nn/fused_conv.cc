// FusedConv (domain "onnxscript.internal", version 1): Conv followed by an
// element-wise activation, in one kernel. Not an ONNX operator: the Session's
// planner rewrites a Conv whose only consumer is Relu, Clip, ... into it, so
// the activation costs no pass of its own over Y.
//
// Inputs and attributes are Conv's (X, W, optional B; auto_pad, dilations,
// group, kernel_shape, pads, strides), plus:
//   activation         string, required: Relu, Clip, LeakyRelu, Sigmoid, Tanh,
//                      HardSigmoid or HardSwish, with those operators' semantics;
//   activation_params  floats: Clip's min and max (default: no bound),
//                      LeakyRelu's alpha (0.01), HardSigmoid's alpha and beta
//                      (0.2, 0.5); the others take none.
#include "conv.h"

namespace onnxscript::eval {
namespace {
void fused_conv(KernelContext& ctx) {
  if (!ctx.attribute("activation")) ctx.fail("attribute 'activation' is required");
  run_conv(ctx, conv_activation(ctx));
}
}  // namespace

void register_nn_fused_conv(KernelRegistry& registry) {
  registry.add("onnxscript.internal", "FusedConv", 1, fused_conv);
}

}  // namespace onnxscript::eval
