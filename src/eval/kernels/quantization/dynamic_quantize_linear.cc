// DynamicQuantizeLinear: quantizes float x to uint8 with a scale and zero
// point computed from x itself, following the schema's function body step by
// step in float:
//   lo = min(0, min(x)), hi = max(0, max(x))   (the range always holds 0)
//   y_scale = (hi - lo) / 255
//   y_zero_point = round_half_even(clamp(0 - lo / y_scale, 0, 255))
//   y = saturate(round_half_even(x / y_scale) + y_zero_point)
// When x is all zeros (or empty) the range is empty: the body would divide 0
// by 0, and here y_scale is 0, the zero point 0 and y all zeros. NaN or
// infinite inputs are an error (the range would be meaningless).
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void dynamic_quantize_linear(KernelContext& ctx) {
  const Tensor& x = ctx.input_tensor(0);
  require_type(TypeList<DataType::kFloat>{}, x.dtype(), ctx);
  const float* in = x.data<float>();
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (!std::isfinite(in[i])) ctx.fail(fmt::format("x holds {} at element {}", in[i], i));
    lo = std::min(lo, in[i]);
    hi = std::max(hi, in[i]);
  }
  const float scale = (hi - lo) / 255.0f;
  uint8_t zero_point = 0;
  if (scale > 0) {
    const float initial = 0.0f - lo / scale;
    zero_point = static_cast<uint8_t>(round_half_to_even(std::clamp(initial, 0.0f, 255.0f)));
  }
  Tensor y(DataType::kUint8, x.shape());
  if (scale > 0)
    for (int64_t i = 0; i < x.numel(); ++i)
      y.data<uint8_t>()[i] = quantize_value<uint8_t>(in[i] / scale, zero_point);
  ctx.set_output(0, y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, Tensor::scalar<float>(scale));
  if (ctx.num_outputs() > 2) ctx.set_output(2, Tensor::scalar<uint8_t>(zero_point));
}

}  // namespace

void register_quantization_dynamic_quantize_linear(KernelRegistry& registry) {
  registry.add("", "DynamicQuantizeLinear", 11, dynamic_quantize_linear);
}

}  // namespace onnxscript::eval
