// QLinearMatMul: the quantized numpy.matmul. With A, B int8/uint8:
//   acc = (A - a_zero_point) @ (B - b_zero_point)      exact, in int32
//   y   = saturate(round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point)
// The rescaling is done in double. A's scale and zero point are one element
// or per row ([M], or [..., M, 1] for stacked A); B's are one element or per
// column ([N], or [..., 1, N]); each scale has its zero point's shape. y's
// scale and zero point are one element; y has y_zero_point's type.
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void qlinear_mat_mul(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& a_scale = ctx.input_tensor(1);
  const Tensor& a_zp = ctx.input_tensor(2);
  const Tensor& b = ctx.input_tensor(3);
  const Tensor& b_scale = ctx.input_tensor(4);
  const Tensor& b_zp = ctx.input_tensor(5);
  const Tensor& y_scale_t = ctx.input_tensor(6);
  const Tensor& y_zp_t = ctx.input_tensor(7);
  if (a_scale.shape() != a_zp.shape() || b_scale.shape() != b_zp.shape())
    ctx.fail("each scale must have the shape of its zero point");
  if (y_scale_t.numel() != 1 || y_zp_t.numel() != 1)
    ctx.fail("y_scale and y_zero_point must have one element");
  require_type(kQuantTypes{}, y_zp_t.dtype(), ctx);
  const Tensor a32 = centre_on_zero_point(ctx, a, &a_zp, /*of_a=*/true, "a_zero_point");
  const Tensor b32 = centre_on_zero_point(ctx, b, &b_zp, /*of_a=*/false, "b_zero_point");
  const std::vector<float> as = read_scales(ctx, a_scale, "a_scale", false);
  const std::vector<float> bs = read_scales(ctx, b_scale, "b_scale", false);
  const float y_scale = read_scales(ctx, y_scale_t, "y_scale", true)[0];
  const int32_t y_zp = read_zero_points(ctx, y_zp_t)[0];
  std::vector<int64_t> out_shape;
  const Tensor acc = int32_matmul(ctx, a32, b32, out_shape);
  // Scales broadcast against the full [..., M, N] product: A's per row, B's per column.
  // (A 1-D operand only takes one-element parameters, so the views are empty then.)
  const std::vector<int64_t> a_view = matmul_param_view(ctx, a_scale, a.shape(), true, "a_scale");
  const std::vector<int64_t> b_view = matmul_param_view(ctx, b_scale, b.shape(), false, "b_scale");
  Tensor y(y_zp_t.dtype(), acc.shape());
  const int32_t* pacc = acc.data<int32_t>();
  dispatch<kQuantTypes>(y.dtype(), ctx, [&]<typename Q>() {
    Q* out = y.data<Q>();
    const BroadcastPlan plan = make_broadcast_plan(acc.shape(), {acc.shape(), a_view, b_view});
    for_each_broadcast_run(plan, [&](int64_t o, const int64_t* in, int64_t count) {
      const int64_t sa = plan.inner_stride(1), sb = plan.inner_stride(2);
      for (int64_t i = 0; i < count; ++i) {
        const double real =
            static_cast<double>(pacc[o + i]) * as[in[1] + i * sa] * bs[in[2] + i * sb] / y_scale;
        out[o + i] = quantize_value<Q>(real, y_zp);
      }
    });
  });
  ctx.set_output(0, y.reshaped(out_shape));
}

}  // namespace

void register_quantization_qlinear_mat_mul(KernelRegistry& registry) {
  registry.add("", "QLinearMatMul", 10, qlinear_mat_mul);
}

}  // namespace onnxscript::eval
