// onnxscript.internal.MatMulAdd: Y = MatMul(A, B) + C in one pass over Y, for
// the linear layers exporters write as MatMul then Add (a 3-D activation
// times a 2-D weight, plus a bias). Not an ONNX operator: the Session's
// planner (eval/fusion.cc) makes these steps, with these inputs:
//   A  float [..., M, K], or [K] (a row, dropped from Y as MatMul drops it)
//   B  float [K, N]
//   C  float with N elements, as [N] or with leading 1s: broadcast over rows
//      (leading 1s beyond Y's rank are prepended to Y, as Add's broadcast does)
// Each block of rows of Y starts as copies of C and takes the product with
// beta = 1, so Y is written once by the copy and updated by GEMM while the
// block is still in cache, instead of a separate broadcast Add over all of Y.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "gemm_util.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {
namespace {

void mat_mul_add(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  const Tensor& c = ctx.input_tensor(2);
  if (a.dtype() != DataType::kFloat || b.dtype() != DataType::kFloat ||
      c.dtype() != DataType::kFloat)
    ctx.fail("A, B and C must be float");
  if (a.rank() < 1 || b.rank() != 2) ctx.fail("A must have rank >= 1 and B rank 2");
  const int64_t k = a.shape().back(), n = b.shape()[1];
  if (b.shape()[0] != k)
    ctx.fail(fmt::format("inner dimensions differ: A {} and B {}", shape_string(a.shape()),
                         shape_string(b.shape())));
  if (c.numel() != n || (c.rank() > 0 && c.shape().back() != n))
    ctx.fail(fmt::format("C {} must hold one value per column of B {}", shape_string(c.shape()),
                         shape_string(b.shape())));
  ir::Dims out_shape = a.shape();
  out_shape[out_shape.size() - 1] = n;
  if (a.rank() == 1) out_shape = ir::Dims{n};
  while (static_cast<int64_t>(out_shape.size()) < c.rank()) out_shape.insert(out_shape.begin(), 1);
  Tensor out = Tensor::uninitialized(DataType::kFloat, out_shape);
  const int64_t rows = k == 0 ? 0 : a.numel() / k;
  const float *av = a.data<float>(), *bv = b.data<float>(), *cv = c.data<float>();
  float* y = out.data<float>();
  if (k == 0) {  // an empty product: Y is C on every row
    for (int64_t r = 0; r < out.numel() / std::max<int64_t>(1, n); ++r)
      std::memcpy(y + r * n, cv, static_cast<size_t>(n) * sizeof(float));
    ctx.set_output(0, out);
    return;
  }
  auto rows_block = [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      std::memcpy(y + r * n, cv, static_cast<size_t>(n) * sizeof(float));
    blas_gemm<float>(false, false, r1 - r0, n, k, 1.0, av + r0 * k, k, bv, n, 1.0, y + r0 * n, n);
  };
  const int threads = intra_op_threads();
  const int64_t work = rows * n * k;
  if (threads <= 1 || work < (int64_t{1} << 21)) {
    rows_block(0, rows);
  } else if (rows >= 4 * threads) {
    const int64_t grain = std::max<int64_t>(4, (int64_t{1} << 20) / std::max<int64_t>(1, n * k));
    parallel_split(rows, grain, rows_block);
  } else {
    // Few rows (one token): gemm splits the columns itself.
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(y + r * n, cv, static_cast<size_t>(n) * sizeof(float));
    gemm<float>(false, false, rows, n, k, 1.0, av, bv, 1.0, y);
  }
  ctx.set_output(0, out);
}

}  // namespace

void register_linalg_mat_mul_add(KernelRegistry& registry) {
  registry.add("onnxscript.internal", "MatMulAdd", 1, mat_mul_add);
}

}  // namespace onnxscript::eval
