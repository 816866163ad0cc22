// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), with x
// float or int32 and y int8 or uint8 (the zero point's type; uint8 when it is
// omitted). x / y_scale is computed in float, as the specification writes it,
// then rounded to nearest with ties to even, so 2.5 -> 2 and 3.5 -> 4; the sum
// saturates to [0, 255] or [-128, 127]. v10 takes scalar parameters only; v13
// adds per-axis quantization: a 1-D scale and zero point indexed along `axis`
// (default 1). NaN quantizes to the zero point.
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

}  // namespace

void register_quantization_quantize_linear(KernelRegistry& registry) {
  for (int64_t v : {10, 13}) registry.add("", "QuantizeLinear", v, quantize_linear);
}

}  // namespace onnxscript::eval
