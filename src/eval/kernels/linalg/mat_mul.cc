// MatMul: numpy.matmul. Inputs of rank >= 2 are stacks of matrices whose
// batch dimensions broadcast; a 1-D A is a row vector [1, K] and a 1-D B a
// column vector [K, 1], and the added dimension is dropped from the result.
// v9 adds 32/64-bit integer types, v13 bfloat16. float/double use BLAS.
#include <fmt/format.h>

#include "gemm_util.h"

namespace onnxscript::eval {
namespace {

using MatMulTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64>;

void mat_mul(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B must have the same element type");
  if (a.rank() == 0 || b.rank() == 0) ctx.fail("A and B must have rank >= 1");
  std::vector<int64_t> as = a.shape(), bs = b.shape();
  if (as.size() == 1) as.insert(as.begin(), 1);
  if (bs.size() == 1) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    ctx.fail(fmt::format("inner dimensions differ: A {} and B {}", shape_string(a.shape()),
                         shape_string(b.shape())));
  const std::vector<int64_t> a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  const std::vector<int64_t> batch = broadcast_shapes(ctx, a_batch, b_batch);
  std::vector<int64_t> out_shape = batch;
  if (a.rank() > 1) out_shape.push_back(m);
  if (b.rank() > 1) out_shape.push_back(n);
  Tensor out(a.dtype(), out_shape);
  const int64_t nb = shape_product(batch, 0, batch.size());
  const std::vector<int64_t> sa = broadcast_strides(a_batch, batch),
                             sb = broadcast_strides(b_batch, batch);
  const bool b_shared = shape_product(b_batch, 0, b_batch.size()) == 1;
  const bool a_full = a_batch == batch;
  dispatch<MatMulTypes>(a.dtype(), ctx, [&]<typename T>() {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = out.data<T>();
    if (b_shared && a_full) {
      // One B for every A matrix: stack the A matrices into one tall GEMM.
      gemm<T>(false, false, nb * m, n, k, 1.0, pa, pb, 0.0, pc);
      return;
    }
    std::vector<int64_t> index(batch.size(), 0);
    const std::vector<int64_t> zero(batch.size(), 0);
    int64_t unused = 0;
    for (int64_t i = 0; i < nb; ++i) {
      int64_t oa = 0, ob = 0;
      for (size_t d = 0; d < batch.size(); ++d) {
        oa += index[d] * sa[d];
        ob += index[d] * sb[d];
      }
      gemm<T>(false, false, m, n, k, 1.0, pa + oa * m * k, pb + ob * k * n, 0.0, pc + i * m * n);
      next_index(index, batch, zero, unused);
    }
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_linalg_mat_mul(KernelRegistry& registry) {
  for (int64_t v : {1, 9, 13}) registry.add("", "MatMul", v, mat_mul);
}

}  // namespace onnxscript::eval
