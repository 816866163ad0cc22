// QLinearMatMul: the quantized numpy.matmul. With A, B int8/uint8:
//   acc = (A - a_zero_point) @ (B - b_zero_point)      exact, in int32
//   y   = saturate(round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point)
// The rescaling is done in double. A's scale and zero point are one element
// or per row ([M], or [..., M, 1] for stacked A); B's are one element or per
// column ([N], or [..., 1, N]); each scale has its zero point's shape. y's
// scale and zero point are one element; y has y_zero_point's type.
//
// v21 lets the scales be float16 or bfloat16 (they are read as float) and
// the quantized tensors float8: those are dequantized to double
// ((q - zero_point) * scale, one-element parameters only), multiplied, and
// the product quantized to y's type by Cast's rules (saturating).
#include "eval/kernels/linalg/matmul_plan.h"
#include "linear_quant.h"
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

// The 8-bit integer path; the scales are float tensors.
void qlinear_mat_mul_int8(KernelContext& ctx, const Tensor& a_scale, const Tensor& b_scale,
                          const Tensor& y_scale_t) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& a_zp = ctx.input_tensor(2);
  const Tensor& b = ctx.input_tensor(3);
  const Tensor& b_zp = ctx.input_tensor(5);
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

void qlinear_mat_mul(KernelContext& ctx) {
  qlinear_mat_mul_int8(ctx, ctx.input_tensor(1), ctx.input_tensor(4), ctx.input_tensor(6));
}

bool is_8bit_int(DataType t) { return t == DataType::kInt8 || t == DataType::kUint8; }

void qlinear_mat_mul_21(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(3);
  const Tensor& y_zp = ctx.input_tensor(7);
  for (size_t i : {1, 4, 6}) {
    const DataType t = ctx.input_tensor(i).dtype();
    if (t != DataType::kFloat && t != DataType::kFloat16 && t != DataType::kBfloat16)
      ctx.fail(
          fmt::format("scales must be float, float16 or bfloat16, not {}", ir::data_type_name(t)));
  }
  auto as_float = [&](size_t i) {
    return cast_tensor(ctx, ctx.input_tensor(i), DataType::kFloat, /*saturate=*/true);
  };
  if (is_8bit_int(a.dtype()) && is_8bit_int(b.dtype()) && is_8bit_int(y_zp.dtype())) {
    qlinear_mat_mul_int8(ctx, as_float(1), as_float(4), as_float(6));
    return;
  }
  // float8 operands: one-element parameters, dequantized in double.
  for (size_t i : {1, 2, 4, 5, 6, 7})
    if (ctx.input_tensor(i).numel() != 1)
      ctx.fail("with float8 operands the scales and zero points must have one element");
  if (ctx.input_tensor(2).dtype() != a.dtype() || ctx.input_tensor(5).dtype() != b.dtype())
    ctx.fail("each zero point must have the element type of its input");
  auto dequantized = [&](const Tensor& q, size_t scale, size_t zp) {
    std::vector<double> v = as_doubles(ctx, q);
    const double s = as_doubles(ctx, ctx.input_tensor(scale))[0];
    const double z = as_doubles(ctx, ctx.input_tensor(zp))[0];
    Tensor t(DataType::kDouble, q.shape());
    for (size_t i = 0; i < v.size(); ++i) t.data<double>()[i] = (v[i] - z) * s;
    return t;
  };
  const Tensor da = dequantized(a, 1, 2), db = dequantized(b, 4, 5);
  const MatMulPlan plan = plan_matmul(ctx, da, db);
  Tensor acc(DataType::kDouble, plan.out_shape);
  batched_matmul<double>(plan, da.data<double>(), db.data<double>(), acc.data<double>());
  const double ys = as_doubles(ctx, ctx.input_tensor(6))[0];
  const double yz = as_doubles(ctx, y_zp)[0];
  if (ys == 0.0) ctx.fail("y_scale must not be zero");
  std::vector<double> y(static_cast<size_t>(acc.numel()));
  double lo = 0, hi = 0;
  const bool integer = is_8bit_int(y_zp.dtype());
  if (integer) lo = y_zp.dtype() == DataType::kInt8 ? -128 : 0, hi = lo + 255;
  for (size_t i = 0; i < y.size(); ++i) {
    const double v = acc.data<double>()[i] / ys;
    y[i] = integer ? std::clamp(round_half_to_even(v) + yz, lo, hi) : v + yz;
  }
  ctx.set_output(0, from_doubles(ctx, y, acc.shape(), y_zp.dtype(), /*saturate=*/true));
}

}  // namespace

void register_quantization_qlinear_mat_mul(KernelRegistry& registry) {
  registry.add("", "QLinearMatMul", 10, qlinear_mat_mul);
  // 21: float16/bfloat16 scales and float8 operands.
  registry.add("", "QLinearMatMul", 21, qlinear_mat_mul_21);
}

}  // namespace onnxscript::eval
