#pragma once
// Row-major matrix multiply used by MatMul, Gemm and Conv: C = alpha*op(A)*op(B) + beta*C.
// float and double go to OpenBLAS; float16/bfloat16 are widened to float
// and go to sgemm; integer types use a plain i-k-j loop (wrapping, as
// integer matmul does in numpy).
#include <cblas.h>

#include <cstdint>
#include <vector>

#include "eval/util/shape_util.h"

namespace onnxscript::eval {

/// C[MxN] = alpha * op(A) * op(B) + beta * C, all row-major and dense.
/// op(A) is MxK (A is KxM when trans_a), op(B) is KxN (B is NxK when trans_b).
template <typename T>
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const T* a,
          const T* b, double beta, T* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // BLAS rejects a zero leading dimension; the product is 0.
    for (int64_t i = 0; i < m * n; ++i)
      c[i] = beta == 0.0 ? T{}
                         : static_cast<T>(static_cast<compute_t<T>>(
                               beta * static_cast<double>(static_cast<compute_t<T>>(c[i]))));
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                static_cast<blasint>(n), static_cast<blasint>(k), static_cast<float>(alpha), a,
                static_cast<blasint>(trans_a ? m : k), b, static_cast<blasint>(trans_b ? k : n),
                static_cast<float>(beta), c, static_cast<blasint>(n));
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                static_cast<blasint>(n), static_cast<blasint>(k), alpha, a,
                static_cast<blasint>(trans_a ? m : k), b, static_cast<blasint>(trans_b ? k : n),
                beta, c, static_cast<blasint>(n));
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    std::vector<float> fa(m * k), fb(k * n), fc(m * n);
    for (int64_t i = 0; i < m * k; ++i) fa[i] = static_cast<float>(a[i]);
    for (int64_t i = 0; i < k * n; ++i) fb[i] = static_cast<float>(b[i]);
    if (beta != 0)
      for (int64_t i = 0; i < m * n; ++i) fc[i] = static_cast<float>(c[i]);
    gemm<float>(trans_a, trans_b, m, n, k, alpha, fa.data(), fb.data(), beta, fc.data());
    for (int64_t i = 0; i < m * n; ++i) c[i] = static_cast<T>(fc[i]);
  } else {
    // Integers: accumulate exactly in the (wrapping) element type; alpha and
    // beta other than 1/0 go through double.
    const int64_t as_i = trans_a ? 1 : k, as_k = trans_a ? m : 1;
    const int64_t bs_k = trans_b ? 1 : n, bs_j = trans_b ? k : 1;
    using U = std::make_unsigned_t<T>;
    std::vector<U> row(n);
    for (int64_t i = 0; i < m; ++i) {
      std::fill(row.begin(), row.end(), U(0));
      for (int64_t p = 0; p < k; ++p) {
        const U av = static_cast<U>(a[i * as_i + p * as_k]);
        if (av == 0) continue;
        const T* bp = b + p * bs_k;
        for (int64_t j = 0; j < n; ++j) row[j] += av * static_cast<U>(bp[j * bs_j]);
      }
      T* cr = c + i * n;
      for (int64_t j = 0; j < n; ++j) {
        const T ab = static_cast<T>(row[j]);
        if (alpha == 1.0 && (beta == 0.0 || beta == 1.0))
          cr[j] = beta == 0.0 ? ab : static_cast<T>(static_cast<U>(ab) + static_cast<U>(cr[j]));
        else
          cr[j] =
              static_cast<T>(alpha * static_cast<double>(ab) + beta * static_cast<double>(cr[j]));
      }
    }
  }
}

}  // namespace onnxscript::eval
