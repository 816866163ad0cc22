// MatMul: numpy.matmul (shape rules in matmul_plan.h). v9 adds 32/64-bit
// integer types, v13 bfloat16. float/double use BLAS.
#include "matmul_plan.h"

namespace onnxscript::eval {
namespace {

using MatMulTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64>;

void mat_mul(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B must have the same element type");
  const MatMulPlan plan = plan_matmul(ctx, a, b);
  // Every element is written (GEMM with beta 0).
  Tensor out = Tensor::uninitialized(a.dtype(), plan.out_shape);
  dispatch<MatMulTypes>(a.dtype(), ctx, [&]<typename T>() {
    batched_matmul<T>(plan, a.data<T>(), b.data<T>(), out.data<T>());
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_linalg_mat_mul(KernelRegistry& registry) {
  for (int64_t v : {1, 9, 13}) registry.add("", "MatMul", v, mat_mul);
}

}  // namespace onnxscript::eval
