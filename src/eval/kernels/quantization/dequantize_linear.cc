// DequantizeLinear: y = (x - x_zero_point) * x_scale as float, for x int8,
// uint8 or int32. The difference is taken exactly in int32, then converted
// to float and multiplied in float. int32 x has no zero point in the
// specification ("it is supposed to be 0"): one that is given must be 0. v10
// takes scalar parameters only; v13 adds per-axis dequantization: a 1-D
// scale and zero point indexed along `axis` (default 1).
//
// From v19 (dequantize_linear_19 below), (x - x_zero_point) * x_scale is
// computed in double for any input type the version allows (float8, 4-bit
// and 2-bit integers, float4e2m1 read by Cast's rules) and rounded once to
// the output type: x_scale's type, or from v23 `output_dtype` when given
// (float for float8e8m0 scales without it).
#include <initializer_list>

#include "linear_quant.h"
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void dequantize_linear(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  using XTypes = TypeList<DataType::kInt8, DataType::kUint8, DataType::kInt32>;
  require_type(XTypes{}, x.dtype(), ctx);
  if (ctx.has_input(2) && ctx.input_tensor(2).dtype() != x.dtype())
    ctx.fail(fmt::format("x_zero_point ({}) must have the element type of x ({})",
                         ir::data_type_name(ctx.input_tensor(2).dtype()),
                         ir::data_type_name(x.dtype())));
  const AxisQuantization q = read_axis_quantization(ctx, x, /*divisor=*/false);
  if (x.dtype() == DataType::kInt32)
    for (int32_t zp : q.zero_point)
      if (zp != 0) ctx.fail(fmt::format("an int32 x must have zero point 0, not {}", zp));
  Tensor y(DataType::kFloat, x.shape());
  float* out = y.data<float>();
  dispatch<XTypes>(x.dtype(), ctx, [&]<typename X>() {
    const X* in = x.data<X>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      const size_t p = q.index(i);
      out[i] = static_cast<float>(static_cast<int32_t>(in[i]) - q.zero_point[p]) * q.scale[p];
    }
  });
  ctx.set_output(0, y);
}

void dequantize_linear_19(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  if (x.dtype() != DataType::kInt32 && !quantized_type_allowed(x.dtype(), ctx.version()))
    ctx.fail(fmt::format("DequantizeLinear-{} does not take {}", ctx.version(),
                         ir::data_type_name(x.dtype())));
  if (ctx.num_inputs() > 2 && ctx.has_input(2) && ctx.input_tensor(2).dtype() != x.dtype())
    ctx.fail(fmt::format("x_zero_point ({}) must have the element type of x ({})",
                         ir::data_type_name(ctx.input_tensor(2).dtype()),
                         ir::data_type_name(x.dtype())));
  const DataType scale_type = ctx.input_tensor(1).dtype();
  using D = DataType;
  if (scale_type != D::kFloat && scale_type != D::kFloat16 && scale_type != D::kBfloat16 &&
      !(ctx.version() >= 24 && scale_type == D::kFloat8E8M0))
    ctx.fail(fmt::format("DequantizeLinear-{} does not take a {} scale", ctx.version(),
                         ir::data_type_name(scale_type)));
  const int64_t output_dtype = ctx.version() >= 23 ? ctx.attr_int("output_dtype", 0) : 0;
  DataType y_type = scale_type == D::kFloat8E8M0 ? D::kFloat : scale_type;
  if (output_dtype != 0) {
    y_type = static_cast<DataType>(output_dtype);
    if (y_type != D::kFloat && y_type != D::kFloat16 && y_type != D::kBfloat16)
      ctx.fail(fmt::format("output_dtype {} is not float, float16 or bfloat16", output_dtype));
  }
  const LinearQuantParams q = read_linear_quant_params(ctx, x);
  if (x.dtype() == D::kInt32)
    for (double zp : q.zero_point)
      if (zp != 0) ctx.fail(fmt::format("an int32 x must have zero point 0, not {}", zp));
  std::vector<double> y = as_doubles(ctx, x);
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t p = q.index(static_cast<int64_t>(i));
    y[i] = (y[i] - q.zero_point[p]) * q.scale[p];
  }
  ctx.set_output(0, from_doubles(ctx, y, x.shape(), y_type, /*saturate=*/true));
}

}  // namespace

void register_quantization_dequantize_linear(KernelRegistry& registry) {
  for (int64_t v : {10, 13}) registry.add("", "DequantizeLinear", v, dequantize_linear);
  // 19: float8 inputs, float16/bfloat16 scales (the output takes the scale's type).
  registry.add("", "DequantizeLinear", 19, dequantize_linear_19);
  // 21: block dequantization (`block_size`), int16/uint16/int4/uint4 inputs.
  registry.add("", "DequantizeLinear", 21, dequantize_linear_19);
  // 23: `output_dtype`, float4e2m1 inputs.
  registry.add("", "DequantizeLinear", 23, dequantize_linear_19);
  // 24: float8e8m0 scales.
  registry.add("", "DequantizeLinear", 24, dequantize_linear_19);
  // 25: int2/uint2 inputs.
  registry.add("", "DequantizeLinear", 25, dequantize_linear_19);
}

}  // namespace onnxscript::eval
