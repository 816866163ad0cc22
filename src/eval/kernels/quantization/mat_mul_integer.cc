// MatMulInteger: numpy.matmul of (A - a_zero_point) and (B - b_zero_point)
// in int32, for A and B int8 or uint8 (independently). The zero points are
// optional (0) and either one element, or per row of A ([M], or [..., M, 1]
// for stacked A) and per column of B ([N], or [..., 1, N]). Products are
// exact; accumulation wraps in 32 bits, which the specification allows.
#include "quant_util.h"

namespace onnxscript::eval {
namespace {

void mat_mul_integer(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  const Tensor* a_zp = ctx.has_input(2) ? &ctx.input_tensor(2) : nullptr;
  const Tensor* b_zp = ctx.has_input(3) ? &ctx.input_tensor(3) : nullptr;
  const Tensor a32 = centre_on_zero_point(ctx, a, a_zp, /*of_a=*/true, "a_zero_point");
  const Tensor b32 = centre_on_zero_point(ctx, b, b_zp, /*of_a=*/false, "b_zero_point");
  std::vector<int64_t> out_shape;
  Tensor y = int32_matmul(ctx, a32, b32, out_shape);
  ctx.set_output(0, y.reshaped(out_shape));
}

}  // namespace

void register_quantization_mat_mul_integer(KernelRegistry& registry) {
  registry.add("", "MatMulInteger", 10, mat_mul_integer);
}

}  // namespace onnxscript::eval
