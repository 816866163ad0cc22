// DequantizeLinear: y = (x - x_zero_point) * x_scale as float, for x int8,
// uint8 or int32. The difference is taken exactly in int32, then converted
// to float and multiplied in float. int32 x has no zero point in the
// specification ("it is supposed to be 0"): one that is given must be 0. v10
// takes scalar parameters only; v13 adds per-axis dequantization: a 1-D
// scale and zero point indexed along `axis` (default 1).
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

}  // namespace

void register_quantization_dequantize_linear(KernelRegistry& registry) {
  for (int64_t v : {10, 13}) registry.add("", "DequantizeLinear", v, dequantize_linear);
}

}  // namespace onnxscript::eval
