// ConvInteger: Conv of (x - x_zero_point) with (w - w_zero_point) in int32,
// for x and w int8 or uint8 (independently), with Conv's strides, dilations,
// pads/auto_pad and group. x_zero_point is one element; w_zero_point is one
// element or one per output channel. Padding stands for x_zero_point, so it
// adds nothing to the sums. Accumulation wraps in 32 bits, which the
// specification allows.
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void conv_integer(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& w = ctx.input_tensor(1);
  const int64_t group = ctx.attr_int("group", 1);
  const Spatial s = integer_conv_spatial(ctx, x, w, group);
  const Tensor x32 =
      centre_input(ctx, x, ctx.has_input(2) ? &ctx.input_tensor(2) : nullptr, "x_zero_point");
  const Tensor w32 =
      centre_weights(ctx, w, ctx.has_input(3) ? &ctx.input_tensor(3) : nullptr, "w_zero_point");
  ctx.set_output(0, int32_conv(x32, w32, group, s));
}

}  // namespace

void register_quantization_conv_integer(KernelRegistry& registry) {
  registry.add("", "ConvInteger", 10, conv_integer);
}

}  // namespace onnxscript::eval
