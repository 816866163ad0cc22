#pragma once
// Shared pieces of the quantization kernels:
//   - quantize_value: saturate(round_half_to_even(scaled) + zero_point), the
//     QuantizeLinear formula once x / scale has been computed;
//   - reading scales (float) and zero points (int8/uint8/int32) as plain vectors;
//   - centring an 8-bit tensor on its zero point as int32, with the zero point
//     per tensor, per row of A or per column of B (MatMulInteger, QLinearMatMul);
//   - an int32 matmul with numpy.matmul batching and an int32 convolution, the
//     cores of MatMulInteger/QLinearMatMul and ConvInteger/QLinearConv.
// Integer accumulation wraps in 32 bits, which the specification allows
// ("accumulation may overflow if and only if in 32 bits").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/linalg/gemm_util.h"
#include "eval/kernels/linalg/matmul_plan.h"
#include "eval/kernels/nn/spatial.h"
#include "eval/util/broadcast.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// The 8-bit types quantized tensors use.
using kQuantTypes = TypeList<DataType::kInt8, DataType::kUint8>;

/// Rounds to the nearest integer, ties to even, without depending on the
/// floating-point environment's rounding mode.
inline double round_half_to_even(double v) {
  const double below = std::floor(v);
  const double fraction = v - below;
  if (fraction > 0.5) return below + 1;
  if (fraction < 0.5) return below;
  return std::fmod(below, 2.0) == 0 ? below : below + 1;
}

/// saturate(round_half_to_even(scaled) + zero_point) in Q's range. NaN maps to
/// the zero point (nothing better is defined); infinities saturate.
template <typename Q>
Q quantize_value(double scaled, int32_t zero_point) {
  constexpr double lo = std::numeric_limits<Q>::min(), hi = std::numeric_limits<Q>::max();
  if (std::isnan(scaled)) return static_cast<Q>(std::clamp<double>(zero_point, lo, hi));
  const double q = round_half_to_even(scaled) + zero_point;
  return static_cast<Q>(std::clamp(q, lo, hi));
}

/// The elements of a float tensor (scales), which must be finite, and
/// non-zero when `divisor` (the scale is divided by). `what` names the input.
inline std::vector<float> read_scales(const KernelContext& ctx, const Tensor& t, const char* what,
                                      bool divisor) {
  if (t.dtype() != DataType::kFloat)
    ctx.fail(fmt::format("{} must be float, not {}", what, ir::data_type_name(t.dtype())));
  std::vector<float> v(t.data<float>(), t.data<float>() + t.numel());
  for (float s : v)
    if (!std::isfinite(s) || (divisor && s == 0.0f))
      ctx.fail(fmt::format("{} holds {}; scales must be finite{}", what, s,
                           divisor ? " and non-zero" : ""));
  return v;
}

/// The elements of an int8, uint8 or int32 tensor (zero points) as int32.
inline std::vector<int32_t> read_zero_points(const KernelContext& ctx, const Tensor& t) {
  std::vector<int32_t> v(t.numel());
  dispatch<TypeList<DataType::kInt8, DataType::kUint8, DataType::kInt32>>(
      t.dtype(), ctx, [&]<typename T>() {
        for (int64_t i = 0; i < t.numel(); ++i) v[i] = static_cast<int32_t>(t.data<T>()[i]);
      });
  return v;
}

/// Scale and zero point of QuantizeLinear/DequantizeLinear for a tensor x:
/// one element (per tensor), or from v13 a 1-D tensor with one entry per
/// index along the `axis` attribute (per axis).
struct AxisQuantization {
  std::vector<float> scale;
  std::vector<int32_t> zero_point;  ///< Same length as scale; zeros when absent.
  int64_t axis_size = 1;            ///< x.shape[axis] for per-axis parameters.
  int64_t inner = 1;                ///< Elements of x after the axis.
  /// Which scale/zero point element `element` (a row-major index into x) uses.
  size_t index(int64_t element) const {
    return scale.size() == 1 ? 0 : static_cast<size_t>((element / inner) % axis_size);
  }
};

/// Reads inputs 1 (scale) and 2 (optional zero point) for x. `divisor`: the
/// scale is divided by (QuantizeLinear), so it must not be zero.
inline AxisQuantization read_axis_quantization(const KernelContext& ctx, const Tensor& x,
                                               bool divisor) {
  AxisQuantization q;
  const Tensor& scale = ctx.input_tensor(1);
  q.scale = read_scales(ctx, scale, "the scale", divisor);
  if (ctx.has_input(2)) {
    const Tensor& zp = ctx.input_tensor(2);
    if (zp.numel() != scale.numel() || zp.rank() != scale.rank())
      ctx.fail(fmt::format("the zero point {} must have the shape of the scale {}",
                           shape_string(zp.shape()), shape_string(scale.shape())));
    q.zero_point = read_zero_points(ctx, zp);
  } else {
    q.zero_point.assign(q.scale.size(), 0);
  }
  if (scale.numel() == 1 && scale.rank() <= 1) return q;
  if (ctx.version() < 13 || scale.rank() != 1)
    ctx.fail(fmt::format("the scale must be {}, not shape {}",
                         ctx.version() < 13 ? "a scalar (per-axis scales need opset 13)"
                                            : "a scalar or a 1-D tensor",
                         shape_string(scale.shape())));
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 1), x.rank());
  q.axis_size = x.shape()[axis];
  q.inner = shape_product(x.shape(), axis + 1, x.shape().size());
  if (scale.numel() != q.axis_size)
    ctx.fail(fmt::format("the scale has {} elements but x {} has {} along axis {}", scale.numel(),
                         shape_string(x.shape()), q.axis_size, axis));
  return q;
}

/// The shape to view a matmul quantization parameter with, so that it
/// broadcasts against its operand `operand_shape`: one element is per tensor;
/// a 1-D parameter of A is per row ([M] viewed as [M, 1]); a 1-D parameter of
/// B is per column ([N]); anything else must broadcast as it is ([..., M, 1]
/// for A, [..., 1, N] for B). Fails when the parameter does not fit.
inline std::vector<int64_t> matmul_param_view(const KernelContext& ctx, const Tensor& param,
                                              std::span<const int64_t> operand_shape, bool of_a,
                                              const char* what) {
  if (param.numel() == 1) return {};
  ir::Dims view = param.shape();
  if (of_a && view.size() == 1) view.push_back(1);
  // The parameter must vary along rows of A (its last axis has one element)
  // or columns of B (its second-last axis has one element).
  const size_t r = operand_shape.size();
  const bool fits = r >= 2 && view.size() >= 2 && broadcasts_to(view, operand_shape) &&
                    (of_a ? view.back() == 1 : view[view.size() - 2] == 1);
  const bool fits_b_vector = !of_a && view.size() == 1 && r >= 2 && view[0] == operand_shape.back();
  if (!fits && !fits_b_vector)
    ctx.fail(fmt::format("{} of shape {} is neither one element nor per {} of {}", what,
                         shape_string(param.shape()), of_a ? "row" : "column",
                         shape_string(operand_shape)));
  return view.to_vector();
}

/// `q` (int8 or uint8) minus its zero point, as int32. `zero_point` (null: 0)
/// has q's element type and is viewed with matmul_param_view.
inline Tensor centre_on_zero_point(const KernelContext& ctx, const Tensor& q,
                                   const Tensor* zero_point, bool of_a, const char* what) {
  require_type(kQuantTypes{}, q.dtype(), ctx);
  Tensor out(DataType::kInt32, q.shape());
  int32_t* dst = out.data<int32_t>();
  std::vector<int32_t> zp{0};
  std::vector<int64_t> view;
  if (zero_point) {
    if (zero_point->dtype() != q.dtype())
      ctx.fail(fmt::format("{} must have the element type of its input ({}), not {}", what,
                           ir::data_type_name(q.dtype()), ir::data_type_name(zero_point->dtype())));
    zp = read_zero_points(ctx, *zero_point);
    view = matmul_param_view(ctx, *zero_point, q.shape(), of_a, what);
  }
  dispatch<kQuantTypes>(q.dtype(), ctx, [&]<typename Q>() {
    const Q* src = q.data<Q>();
    const BroadcastPlan plan = make_broadcast_plan(q.shape(), {q.shape(), view});
    for_each_broadcast_run(plan, [&](int64_t o, const int64_t* in, int64_t count) {
      const int64_t zs = plan.inner_stride(1);
      for (int64_t i = 0; i < count; ++i)
        dst[o + i] = static_cast<int32_t>(src[in[0] + i]) - zp[in[1] + i * zs];
    });
  });
  return out;
}

/// numpy.matmul of int32 tensors. Returns the product in the "full" shape
/// [batch..., M, N] (a 1-D A counts as [1, K], a 1-D B as [K, 1]); `out_shape`
/// receives the shape numpy gives the result (those added axes dropped).
inline Tensor int32_matmul(const KernelContext& ctx, const Tensor& a, const Tensor& b,
                           std::vector<int64_t>& out_shape) {
  const MatMulPlan plan = plan_matmul(ctx, a, b);
  out_shape = plan.out_shape;
  std::vector<int64_t> full = plan.batch;
  full.push_back(plan.m);
  full.push_back(plan.n);
  Tensor out(DataType::kInt32, full);
  batched_matmul<int32_t>(plan, a.data<int32_t>(), b.data<int32_t>(), out.data<int32_t>());
  return out;
}

/// Shape checks shared by ConvInteger and QLinearConv; returns the spatial
/// parameters. X is [N, C, D1, ...] and W [M, C / group, k1, ...].
inline Spatial integer_conv_spatial(const KernelContext& ctx, const Tensor& x, const Tensor& w,
                                    int64_t group) {
  if (x.rank() < 3) ctx.fail(fmt::format("x must have rank >= 3, not {}", x.rank()));
  if (w.rank() != x.rank())
    ctx.fail(fmt::format("w {} and x {} must have the same rank", shape_string(w.shape()),
                         shape_string(x.shape())));
  const int64_t c = x.shape()[1], m = w.shape()[0];
  if (group <= 0 || c % group != 0 || m % group != 0)
    ctx.fail(fmt::format("group {} must divide the {} input and {} output channels", group, c, m));
  if (w.shape()[1] != c / group)
    ctx.fail(fmt::format("w has {} input channels per group but x has {} / group {}", w.shape()[1],
                         c, group));
  std::vector<int64_t> kernel(w.shape().begin() + 2, w.shape().end());
  if (const ir::Attribute* ks = ctx.attribute("kernel_shape"))
    if (ks->as_ints() != kernel)
      ctx.fail(fmt::format("kernel_shape {} does not match w {}", shape_string(ks->as_ints()),
                           shape_string(w.shape())));
  return spatial_params(ctx, {x.shape().begin() + 2, x.shape().end()}, kernel, false);
}

/// Convolution of zero-point-centred int32 tensors: X [N, C, D...] with
/// W [M, C / group, k...] gives int32 Y [N, M, O...]. Padding contributes 0,
/// i.e. it stands for the input's zero point. Computed as im2col + int32 GEMM.
inline Tensor int32_conv(const Tensor& x, const Tensor& w, int64_t group, const Spatial& s) {
  const int64_t n = x.shape()[0], c = x.shape()[1], m = w.shape()[0];
  const int64_t cg = c / group, mg = m / group;
  const int64_t ksize = s.kernel_size(), osize = s.out_size(), isize = s.in_size();
  std::vector<int64_t> out_shape{n, m};
  out_shape.insert(out_shape.end(), s.out.begin(), s.out.end());
  Tensor y(DataType::kInt32, out_shape);
  if (y.numel() == 0) return y;
  // source[k * osize + o]: offset inside one input channel that output
  // position o reads at kernel offset k, or -1 in the padding.
  const auto tab = window_tables(s);
  const std::vector<int64_t> in_strides = contiguous_strides(s.in);
  std::vector<int64_t> source(ksize * osize);
  std::vector<int64_t> kidx(s.dims, 0), oidx(s.dims, 0);
  const std::vector<int64_t> zero(s.dims, 0);
  int64_t unused = 0;
  for (int64_t k = 0; k < ksize; ++k) {
    std::fill(oidx.begin(), oidx.end(), 0);
    for (int64_t o = 0; o < osize; ++o) {
      int64_t offset = 0;
      for (size_t d = 0; d < s.dims && offset >= 0; ++d) {
        const int64_t i = tab[d][kidx[d] * s.out[d] + oidx[d]];
        offset = i < 0 ? -1 : offset + i * in_strides[d];
      }
      source[k * osize + o] = offset;
      next_index(oidx, s.out, zero, unused);
    }
    next_index(kidx, s.kernel, zero, unused);
  }
  std::vector<int32_t> col(cg * ksize * osize);
  const int32_t* px = x.data<int32_t>();
  const int32_t* pw = w.data<int32_t>();
  int32_t* py = y.data<int32_t>();
  for (int64_t b = 0; b < n; ++b)
    for (int64_t g = 0; g < group; ++g) {
      for (int64_t ch = 0; ch < cg; ++ch) {
        const int32_t* xc = px + (b * c + g * cg + ch) * isize;
        int32_t* row = col.data() + ch * ksize * osize;
        for (int64_t i = 0; i < ksize * osize; ++i) row[i] = source[i] < 0 ? 0 : xc[source[i]];
      }
      gemm<int32_t>(false, false, mg, osize, cg * ksize, 1.0, pw + g * mg * cg * ksize, col.data(),
                    0.0, py + (b * m + g * mg) * osize);
    }
  return y;
}

/// W (int8/uint8, [M, ...]) minus its zero point, which is one element or one
/// per output channel ([M]), as int32.
inline Tensor centre_weights(const KernelContext& ctx, const Tensor& w, const Tensor* zero_point,
                             const char* what) {
  require_type(kQuantTypes{}, w.dtype(), ctx);
  std::vector<int32_t> zp{0};
  if (zero_point) {
    if (zero_point->dtype() != w.dtype())
      ctx.fail(fmt::format("{} must have the element type of w", what));
    zp = read_zero_points(ctx, *zero_point);
    if (zero_point->rank() > 1 ||
        (zp.size() != 1 && static_cast<int64_t>(zp.size()) != w.shape()[0]))
      ctx.fail(fmt::format("{} must have one element or one per output channel ({}), not shape {}",
                           what, w.shape()[0], shape_string(zero_point->shape())));
  }
  Tensor out(DataType::kInt32, w.shape());
  const int64_t per_channel = w.shape().empty() || w.shape()[0] == 0 ? 0 : w.numel() / w.shape()[0];
  dispatch<kQuantTypes>(w.dtype(), ctx, [&]<typename Q>() {
    for (int64_t i = 0; i < w.numel(); ++i)
      out.data<int32_t>()[i] = static_cast<int32_t>(w.data<Q>()[i]) -
                               zp[zp.size() == 1 ? 0 : static_cast<size_t>(i / per_channel)];
  });
  return out;
}

/// X (int8/uint8) minus its scalar zero point, as int32.
inline Tensor centre_input(const KernelContext& ctx, const Tensor& x, const Tensor* zero_point,
                           const char* what) {
  require_type(kQuantTypes{}, x.dtype(), ctx);
  int32_t zp = 0;
  if (zero_point) {
    if (zero_point->dtype() != x.dtype())
      ctx.fail(fmt::format("{} must have the element type of x", what));
    if (zero_point->numel() != 1)
      ctx.fail(fmt::format("{} must be a scalar, not shape {}", what,
                           shape_string(zero_point->shape())));
    zp = read_zero_points(ctx, *zero_point)[0];
  }
  Tensor out(DataType::kInt32, x.shape());
  dispatch<kQuantTypes>(x.dtype(), ctx, [&]<typename Q>() {
    for (int64_t i = 0; i < x.numel(); ++i)
      out.data<int32_t>()[i] = static_cast<int32_t>(x.data<Q>()[i]) - zp;
  });
  return out;
}

}  // namespace onnxscript::eval
