#pragma once
// The parameters of QuantizeLinear and DequantizeLinear from version 19 on:
// scales and zero points of any element type the schemas allow, read as
// doubles through Cast's conversions, and laid out per tensor (one element),
// per axis (1-D, one entry per index along `axis`) or, from version 21, per
// block (the rank of x, with ceil(x.shape[axis] / block_size) entries along
// `axis` and x's extent elsewhere).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "eval/kernels/cast/cast.h"
#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// The quantized element types that QuantizeLinear's output and
/// DequantizeLinear's input allow at `version` (19 and later); DequantizeLinear
/// also takes int32.
inline bool quantized_type_allowed(DataType t, int64_t version) {
  using D = DataType;
  for (D ok : {D::kInt8, D::kUint8, D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2,
               D::kFloat8E5M2FNUZ})
    if (t == ok) return true;
  if (version >= 21)
    for (D ok : {D::kInt16, D::kUint16, D::kInt4, D::kUint4})
      if (t == ok) return true;
  if (version >= 23 && t == D::kFloat4E2M1) return true;
  return version >= 25 && (t == D::kInt2 || t == D::kUint2);
}

/// The elements of any numeric tensor (including float8, float4 and the
/// packed 4- and 2-bit integers) as doubles.
inline std::vector<double> as_doubles(const KernelContext& ctx, const Tensor& t) {
  const Tensor d = cast_tensor(ctx, t, DataType::kDouble, /*saturate=*/true);
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

/// `values` rounded once to element type `dtype` and read back as doubles.
inline std::vector<double> round_through(const KernelContext& ctx, std::vector<double> values,
                                         DataType dtype) {
  if (dtype == DataType::kDouble) return values;
  Tensor t(DataType::kDouble, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), t.data<double>());
  return as_doubles(ctx, cast_tensor(ctx, t, dtype, /*saturate=*/true));
}

/// `values` (shape `shape`) as a tensor of `dtype`, converted by Cast's rules.
inline Tensor from_doubles(const KernelContext& ctx, const std::vector<double>& values,
                           const ir::Dims& shape, DataType dtype, bool saturate) {
  Tensor t(DataType::kDouble, shape);
  std::copy(values.begin(), values.end(), t.data<double>());
  return cast_tensor(ctx, t, dtype, saturate);
}

/// Scale and zero point of x, with the index of the parameter element each
/// element of x uses.
struct LinearQuantParams {
  std::vector<double> scale;
  std::vector<double> zero_point;  ///< Same length as scale; zeros when absent.
  int64_t axis_size = 1, inner = 1, block = 0, blocks = 1;
  bool per_tensor = true;
  size_t index(int64_t element) const {
    if (per_tensor) return 0;
    const int64_t a = (element / inner) % axis_size;
    if (block == 0) return static_cast<size_t>(a);
    const int64_t outer = element / (inner * axis_size), r = element % inner;
    return static_cast<size_t>((outer * blocks + a / block) * inner + r);
  }
};

/// Reads inputs 1 (scale) and 2 (optional zero point) for x with the `axis`
/// and (from v21) `block_size` attributes.
inline LinearQuantParams read_linear_quant_params(const KernelContext& ctx, const Tensor& x) {
  LinearQuantParams q;
  const Tensor& scale = ctx.input_tensor(1);
  q.scale = as_doubles(ctx, scale);
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    const Tensor& zp = ctx.input_tensor(2);
    if (zp.shape() != scale.shape() && !(zp.numel() == 1 && scale.numel() == 1))
      ctx.fail(fmt::format("the zero point {} must have the shape of the scale {}",
                           shape_string(zp.shape()), shape_string(scale.shape())));
    q.zero_point = as_doubles(ctx, zp);
  } else {
    q.zero_point.assign(q.scale.size(), 0.0);
  }
  const int64_t block = ctx.version() >= 21 ? ctx.attr_int("block_size", 0) : 0;
  if (block < 0) ctx.fail(fmt::format("block_size {} is negative", block));
  if (block == 0 && scale.numel() == 1 && scale.rank() <= 1) return q;
  q.per_tensor = false;
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 1), x.rank());
  q.axis_size = x.shape()[axis];
  q.inner = shape_product(x.shape(), axis + 1, x.shape().size());
  if (block == 0) {
    if (scale.rank() != 1 || scale.numel() != q.axis_size)
      ctx.fail(
          fmt::format("the scale {} must be one element, or 1-D with x {}'s {} entries "
                      "along axis {}",
                      shape_string(scale.shape()), shape_string(x.shape()), q.axis_size, axis));
    return q;
  }
  q.block = block;
  q.blocks = (q.axis_size + block - 1) / block;
  std::vector<int64_t> want = x.shape().to_vector();
  want[axis] = q.blocks;
  if (scale.shape() != ir::Dims(want))
    ctx.fail(fmt::format("with block_size {} the scale must be {}, not {}", block,
                         shape_string(want), shape_string(scale.shape())));
  return q;
}

}  // namespace onnxscript::eval
