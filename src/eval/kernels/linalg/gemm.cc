// Gemm: Y = alpha * A' * B' + beta * C, where A' = transpose(A) when transA
// and B' likewise; C broadcasts to [M, N] (v1/v6 gate this with the
// `broadcast` attribute; v7+ always broadcast) and is optional from v11.
// v9 adds 32/64-bit integer types, v13 bfloat16. float/double use BLAS.
#include <fmt/format.h>

#include "gemm_util.h"

namespace onnxscript::eval {
namespace {

using GemmTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt32, DataType::kInt64, DataType::kUint32, DataType::kUint64>;

void gemm_kernel(KernelContext& ctx) {
  const Tensor& a = ctx.input_tensor(0);
  const Tensor& b = ctx.input_tensor(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B must have the same element type");
  if (a.rank() != 2 || b.rank() != 2)
    ctx.fail(
        fmt::format("A {} and B {} must be 2-D", shape_string(a.shape()), shape_string(b.shape())));
  const bool ta = ctx.attr_int("transA", 0) != 0, tb = ctx.attr_int("transB", 0) != 0;
  const double alpha = ctx.attr_float("alpha", 1.0f);
  double beta = ctx.attr_float("beta", 1.0f);
  const int64_t m = ta ? a.shape()[1] : a.shape()[0], k = ta ? a.shape()[0] : a.shape()[1];
  const int64_t kb = tb ? b.shape()[1] : b.shape()[0], n = tb ? b.shape()[0] : b.shape()[1];
  if (k != kb)
    ctx.fail(fmt::format("inner dimensions differ: A {} and B {} (transA={}, transB={})",
                         shape_string(a.shape()), shape_string(b.shape()), ta, tb));
  const std::vector<int64_t> out_shape{m, n};
  Tensor out;
  if (ctx.has_input(2) && beta != 0.0) {
    const Tensor& c = ctx.input_tensor(2);
    if (c.dtype() != a.dtype()) ctx.fail("C must have the element type of A");
    if (broadcast_shapes(ctx, c.shape(), out_shape) != out_shape)
      ctx.fail(fmt::format("C {} does not broadcast to [{},{}]", shape_string(c.shape()), m, n));
    out = broadcast_to(c, out_shape);
  } else {
    // GEMM with beta 0 writes every element without reading it.
    out = Tensor::uninitialized(a.dtype(), out_shape);
    beta = 0.0;
  }
  dispatch<GemmTypes>(a.dtype(), ctx, [&]<typename T>() {
    gemm<T>(ta, tb, m, n, k, alpha, a.data<T>(), b.data<T>(), beta, out.data<T>());
  });
  ctx.set_output(0, out);
}

}  // namespace

void register_linalg_gemm(KernelRegistry& registry) {
  for (int64_t v : {1, 6, 7, 9, 11, 13}) registry.add("", "Gemm", v, gemm_kernel);
}

}  // namespace onnxscript::eval
