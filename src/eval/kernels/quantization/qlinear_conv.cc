// QLinearConv: the quantized Conv. With x, w, y int8/uint8 (independently):
//   acc[n, m, ...] = conv(x - x_zero_point, w - w_zero_point[m]) + B[m]   exact, int32
//   y = saturate(round_half_even(acc * x_scale * w_scale[m] / y_scale) + y_zero_point)
// The rescaling is done in double. x's and y's scale and zero point are one
// element; w's are one element or one per output channel (M). The optional
// bias B is int32 [M], already quantized with scale x_scale * w_scale and
// zero point 0. Padding stands for x_zero_point. Attributes as Conv.
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void qlinear_conv(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  const Tensor& x_scale_t = ctx.input_tensor(1);
  const Tensor& x_zp = ctx.input_tensor(2);
  const Tensor& w = ctx.input_tensor(3);
  const Tensor& w_scale_t = ctx.input_tensor(4);
  const Tensor& w_zp = ctx.input_tensor(5);
  const Tensor& y_scale_t = ctx.input_tensor(6);
  const Tensor& y_zp_t = ctx.input_tensor(7);
  const int64_t group = ctx.attr_int("group", 1);
  const Spatial s = integer_conv_spatial(ctx, x, w, group);
  const int64_t m = w.shape()[0];
  if (x_scale_t.numel() != 1) ctx.fail("x_scale must have one element");
  if (y_scale_t.numel() != 1 || y_zp_t.numel() != 1)
    ctx.fail("y_scale and y_zero_point must have one element");
  require_type(kQuantTypes{}, y_zp_t.dtype(), ctx);
  const float x_scale = read_scales(ctx, x_scale_t, "x_scale", false)[0];
  const std::vector<float> w_scale = read_scales(ctx, w_scale_t, "w_scale", false);
  if (w_scale_t.rank() > 1 || (w_scale.size() != 1 && static_cast<int64_t>(w_scale.size()) != m))
    ctx.fail(fmt::format("w_scale must have one element or one per output channel ({}), not {}", m,
                         shape_string(w_scale_t.shape())));
  const float y_scale = read_scales(ctx, y_scale_t, "y_scale", true)[0];
  const int32_t y_zp = read_zero_points(ctx, y_zp_t)[0];
  std::vector<int32_t> bias(m, 0);
  if (ctx.has_input(8)) {
    const Tensor& b = ctx.input_tensor(8);
    if (b.dtype() != DataType::kInt32 || b.rank() != 1 || b.numel() != m)
      ctx.fail(fmt::format("B must be int32 of shape [{}], not {} {}", m,
                           ir::data_type_name(b.dtype()), shape_string(b.shape())));
    bias.assign(b.data<int32_t>(), b.data<int32_t>() + m);
  }
  const Tensor x32 = centre_input(ctx, x, &x_zp, "x_zero_point");
  const Tensor w32 = centre_weights(ctx, w, &w_zp, "w_zero_point");
  const Tensor acc = int32_conv(x32, w32, group, s);
  Tensor y(y_zp_t.dtype(), acc.shape());
  const int64_t n = x.shape()[0], osize = s.out_size();
  dispatch<kQuantTypes>(y.dtype(), ctx, [&]<typename Q>() {
    const int32_t* in = acc.data<int32_t>();
    Q* out = y.data<Q>();
    for (int64_t b = 0; b < n; ++b)
      for (int64_t c = 0; c < m; ++c) {
        const double multiplier =
            static_cast<double>(x_scale) * w_scale[w_scale.size() == 1 ? 0 : c] / y_scale;
        const int64_t base = (b * m + c) * osize;
        for (int64_t o = 0; o < osize; ++o) {
          // The bias is added in int64: int32 + int32 must not overflow here.
          const int64_t total = static_cast<int64_t>(in[base + o]) + bias[c];
          out[base + o] = quantize_value<Q>(static_cast<double>(total) * multiplier, y_zp);
        }
      }
  });
  ctx.set_output(0, y);
}

}  // namespace

void register_quantization_qlinear_conv(KernelRegistry& registry) {
  registry.add("", "QLinearConv", 10, qlinear_conv);
}

}  // namespace onnxscript::eval
