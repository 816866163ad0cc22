#pragma once
// numpy.matmul's shape rules and batch loop, shared by MatMul and the integer
// matrix products (MatMulInteger, QLinearMatMul): inputs of rank >= 2 are
// stacks of matrices whose batch dimensions broadcast; a 1-D A is a row
// vector [1, K] and a 1-D B a column vector [K, 1], and the added dimension
// is dropped from the result.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "gemm_util.h"
#include "onnxscript/eval/kernel.h"

namespace onnxscript::eval {

/// The shapes of one numpy.matmul.
struct MatMulPlan {
  int64_t m = 0, k = 0, n = 0;     ///< Each product is [m, k] x [k, n].
  std::vector<int64_t> a_batch;    ///< A's batch dimensions.
  std::vector<int64_t> b_batch;    ///< B's batch dimensions.
  std::vector<int64_t> batch;      ///< The broadcast batch dimensions.
  std::vector<int64_t> out_shape;  ///< The result's shape as numpy gives it.
};

/// Checks A and B (rank >= 1, matching inner dimensions, broadcastable
/// batches) and plans their product; fails the kernel otherwise.
inline MatMulPlan plan_matmul(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.rank() == 0 || b.rank() == 0) ctx.fail("A and B must have rank >= 1");
  ir::Dims as = a.shape(), bs = b.shape();
  if (as.size() == 1) as.insert(as.begin(), 1);
  if (bs.size() == 1) bs.push_back(1);
  MatMulPlan plan;
  plan.m = as[as.size() - 2];
  plan.k = as.back();
  plan.n = bs.back();
  if (bs[bs.size() - 2] != plan.k)
    ctx.fail(fmt::format("inner dimensions differ: A {} and B {}", shape_string(a.shape()),
                         shape_string(b.shape())));
  plan.a_batch.assign(as.begin(), as.end() - 2);
  plan.b_batch.assign(bs.begin(), bs.end() - 2);
  plan.batch = broadcast_shapes(ctx, plan.a_batch, plan.b_batch);
  plan.out_shape = plan.batch;
  if (a.rank() > 1) plan.out_shape.push_back(plan.m);
  if (b.rank() > 1) plan.out_shape.push_back(plan.n);
  return plan;
}

/// C = A x B over the broadcast batch; C is dense [batch..., m, n], which has
/// the elements of `plan.out_shape` in the same order.
template <typename T>
void batched_matmul(const MatMulPlan& plan, const T* a, const T* b, T* c) {
  const auto& batch = plan.batch;
  const int64_t m = plan.m, k = plan.k, n = plan.n;
  const int64_t nb = shape_product(batch, 0, batch.size());
  if (shape_product(plan.b_batch, 0, plan.b_batch.size()) == 1 && plan.a_batch == batch) {
    // One B for every A matrix: stack the A matrices into one tall GEMM.
    gemm<T>(false, false, nb * m, n, k, 1.0, a, b, 0.0, c);
    return;
  }
  const std::vector<int64_t> sa = broadcast_strides(plan.a_batch, batch),
                             sb = broadcast_strides(plan.b_batch, batch);
  // The product for batch position i (row-major over `batch`).
  auto product = [&](int64_t i) {
    int64_t oa = 0, ob = 0;
    for (size_t d = batch.size(), rest = static_cast<size_t>(i); d-- > 0;) {
      const int64_t idx = static_cast<int64_t>(rest) % batch[d];
      rest /= static_cast<size_t>(batch[d]);
      oa += idx * sa[d];
      ob += idx * sb[d];
    }
    gemm<T>(false, false, m, n, k, 1.0, a + oa * m * k, b + ob * k * n, 0.0, c + i * m * n);
  };
  // Attention's products ([B, H, S, D] x [B, H, D, S]) are many and small:
  // split the batch over the intra-op threads, each product one
  // single-threaded GEMM, rather than splitting each small product (or not
  // splitting it at all below gemm's threshold). Few large products keep
  // gemm's own split, which balances better than whole products would.
  const int threads = intra_op_threads();
  const int64_t work = m * n * k;
  if (threads > 1 && nb >= 2 && (nb >= 2 * threads || work < (int64_t{1} << 23)) &&
      nb * work >= (int64_t{1} << 20)) {
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 20) / std::max<int64_t>(1, work));
    parallel_for(nb, grain, [&](int64_t first, int64_t last) {
      const IntraOpThreads one(1);  // the calling thread runs a range too: no nested split
      for (int64_t i = first; i < last; ++i) product(i);
    });
    return;
  }
  for (int64_t i = 0; i < nb; ++i) product(i);
}

}  // namespace onnxscript::eval
