// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), with x
// float or int32 and y int8 or uint8 (the zero point's type; uint8 when it is
// omitted). x / y_scale is computed in float, as the specification writes it,
// then rounded to nearest with ties to even, so 2.5 -> 2 and 3.5 -> 4; the sum
// saturates to [0, 255] or [-128, 127]. v10 takes scalar parameters only; v13
// adds per-axis quantization: a 1-D scale and zero point indexed along `axis`
// (default 1). NaN quantizes to the zero point.
//
// From v19 (quantize_linear_19 below) the computation is in double, rounded
// where the specification rounds: x and the scale to the division's
// precision, and the quotient. Integer outputs are
// saturate(round_half_to_even(x / scale) + zero_point); float8 and float4e2m1
// outputs are x / scale + zero_point converted by Cast's rules (`saturate`
// clamps float8 overflow to the largest finite value; float4e2m1 always
// saturates).
#include <initializer_list>

#include "linear_quant.h"
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void quantize_linear(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(TypeList<DataType::kFloat, DataType::kInt32>{}, x.dtype(), ctx);
  const DataType y_type = ctx.has_input(2) ? ctx.input_tensor(2).dtype() : DataType::kUint8;
  require_type(kQuantTypes{}, y_type, ctx);
  const AxisQuantization q = read_axis_quantization(ctx, x, /*divisor=*/true);
  Tensor y(y_type, x.shape());
  dispatch<kQuantTypes>(y_type, ctx, [&]<typename Q>() {
    Q* out = y.data<Q>();
    dispatch<TypeList<DataType::kFloat, DataType::kInt32>>(x.dtype(), ctx, [&]<typename X>() {
      const X* in = x.data<X>();
      for (int64_t i = 0; i < x.numel(); ++i) {
        const size_t p = q.index(i);
        const float scaled = static_cast<float>(in[i]) / q.scale[p];
        out[i] = quantize_value<Q>(scaled, q.zero_point[p]);
      }
    });
  });
  ctx.set_output(0, y);
}

// The range of an integer output type; false for float outputs.
bool integer_range(DataType t, double& lo, double& hi) {
  switch (t) {
    case DataType::kInt8:
      lo = -128, hi = 127;
      return true;
    case DataType::kUint8:
      lo = 0, hi = 255;
      return true;
    case DataType::kInt16:
      lo = -32768, hi = 32767;
      return true;
    case DataType::kUint16:
      lo = 0, hi = 65535;
      return true;
    case DataType::kInt4:
      lo = -8, hi = 7;
      return true;
    case DataType::kUint4:
      lo = 0, hi = 15;
      return true;
    case DataType::kInt2:
      lo = -2, hi = 1;
      return true;
    case DataType::kUint2:
      lo = 0, hi = 3;
      return true;
    default:
      return false;
  }
}

bool is_float_type(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 ||
         t == DataType::kBfloat16;
}

void quantize_linear_19(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(
      TypeList<DataType::kFloat, DataType::kFloat16, DataType::kBfloat16, DataType::kInt32>{},
      x.dtype(), ctx);
  const bool has_zp = ctx.num_inputs() > 2 && ctx.has_input(2);
  const int64_t output_dtype = ctx.version() >= 21 ? ctx.attr_int("output_dtype", 0) : 0;
  DataType y_type = DataType::kUint8;
  if (has_zp) {
    y_type = ctx.input_tensor(2).dtype();
    if (output_dtype != 0 && output_dtype != static_cast<int64_t>(y_type))
      ctx.fail(fmt::format("output_dtype {} differs from the zero point's type {}", output_dtype,
                           ir::data_type_name(y_type)));
  } else if (output_dtype != 0) {
    y_type = static_cast<DataType>(output_dtype);
  }
  if (!quantized_type_allowed(y_type, ctx.version()))
    ctx.fail(fmt::format("QuantizeLinear-{} cannot output {}", ctx.version(),
                         ir::data_type_name(y_type)));
  const DataType scale_type = ctx.input_tensor(1).dtype();
  const int64_t precision = ctx.version() >= 23 ? ctx.attr_int("precision", 0) : 0;
  DataType prec = precision != 0 ? static_cast<DataType>(precision) : scale_type;
  if (!is_float_type(prec)) prec = DataType::kFloat;  // int32 or float8e8m0 scales
  const bool saturate = ctx.attr_int("saturate", 1) != 0;

  LinearQuantParams q = read_linear_quant_params(ctx, x);
  for (double s : q.scale)
    if (s == 0.0 || !std::isfinite(s))
      ctx.fail(fmt::format("the scale holds {}; scales must be finite and non-zero", s));
  const std::vector<double> xv = round_through(ctx, as_doubles(ctx, x), prec);
  q.scale = round_through(ctx, q.scale, prec);
  std::vector<double> y(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) y[i] = xv[i] / q.scale[q.index(static_cast<int64_t>(i))];
  y = round_through(ctx, std::move(y), prec);
  double lo = 0, hi = 0;
  const bool integer = integer_range(y_type, lo, hi);
  for (size_t i = 0; i < y.size(); ++i) {
    const double zp = q.zero_point[q.index(static_cast<int64_t>(i))];
    if (!integer)
      y[i] += zp;
    else if (std::isnan(y[i]))
      y[i] = std::clamp(zp, lo, hi);
    else
      y[i] = std::clamp(round_half_to_even(y[i]) + zp, lo, hi);
  }
  ctx.set_output(0, from_doubles(ctx, y, x.shape(), y_type, saturate));
}

}  // namespace

void register_quantization_quantize_linear(KernelRegistry& registry) {
  for (int64_t v : {10, 13}) registry.add("", "QuantizeLinear", v, quantize_linear);
  // 19: float16/bfloat16 x and scale, float8 outputs, `saturate`.
  registry.add("", "QuantizeLinear", 19, quantize_linear_19);
  // 21: block quantization (`block_size`), `output_dtype`, int16/uint16/int4/uint4.
  registry.add("", "QuantizeLinear", 21, quantize_linear_19);
  // 23: a scale type apart from x's, the `precision` attribute, float4e2m1.
  registry.add("", "QuantizeLinear", 23, quantize_linear_19);
  // 24: float8e8m0 scales.
  registry.add("", "QuantizeLinear", 24, quantize_linear_19);
  // 25: int2/uint2 outputs.
  registry.add("", "QuantizeLinear", 25, quantize_linear_19);
}

}  // namespace onnxscript::eval
