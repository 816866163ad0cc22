#pragma once
// Row-major matrix multiply used by MatMul, Gemm and Conv: C = alpha*op(A)*op(B) + beta*C.
// float goes to oneDNN's dnnl_sgemm when the build found it (ONNXSCRIPT_HAVE_DNNL:
// about twice OpenBLAS's speed on this project's shapes, bench/README.md), else
// to OpenBLAS; double goes to OpenBLAS; float16/bfloat16 are widened to float
// and go to sgemm; integer types use a plain i-k-j loop (wrapping, as
// integer matmul does in numpy). Large float and double products are split
// over the intra-op threads (blas_gemm_parallel).
#include <cblas.h>
#ifdef ONNXSCRIPT_HAVE_DNNL
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#endif

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "eval/util/parallel.h"
#include "eval/util/shape_util.h"
#include "onnxscript/support/error.h"

namespace onnxscript::eval {

#ifdef ONNXSCRIPT_HAVE_DNNL
/// One dnnl_sgemm call (row-major, like cblas_sgemm with CblasRowMajor) on
/// one OpenMP thread. Debian's oneDNN threads with OpenMP, and a thread that
/// is not in an OpenMP team starts one of omp_get_max_threads() threads on
/// every call: from each intra-op thread at once that would put several
/// spinning threads on every core. The intra-op pool does the splitting, so
/// each calling thread caps its own OpenMP teams at one thread, once.
inline void dnnl_sgemm_one_thread(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                                  float alpha, const float* a, int64_t lda, const float* b,
                                  int64_t ldb, float beta, float* c, int64_t ldc) {
  thread_local const bool capped = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)capped;
  const dnnl_status_t status = dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha,
                                          a, lda, b, ldb, beta, c, ldc);
  // The arguments are checked by the kernels, so a failure here is a bug
  // (or oneDNN out of memory), not bad input.
  if (status != dnnl_success)
    throw Error(fmt::format("GEMM: dnnl_sgemm failed with status {} ({}x{}x{})",
                            static_cast<int>(status), m, n, k));
}
#endif

/// C[MxN] = alpha * op(A) * op(B) + beta * C, all row-major and dense.
/// op(A) is MxK (A is KxM when trans_a), op(B) is KxN (B is NxK when trans_b).
template <typename T>
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const T* a,
          const T* b, double beta, T* c);

/// One BLAS call for C = alpha * op(A) * op(B) + beta * C on a block of C,
/// with the leading dimensions of the whole matrices.
template <typename T>
void blas_gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
               const T* a, int64_t lda, const T* b, int64_t ldb, double beta, T* c, int64_t ldc) {
  const auto ta = trans_a ? CblasTrans : CblasNoTrans, tb = trans_b ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<T, float>) {
#ifdef ONNXSCRIPT_HAVE_DNNL
    dnnl_sgemm_one_thread(trans_a, trans_b, m, n, k, static_cast<float>(alpha), a, lda, b, ldb,
                          static_cast<float>(beta), c, ldc);
    return;
#endif
    cblas_sgemm(CblasRowMajor, ta, tb, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(k), static_cast<float>(alpha), a, static_cast<blasint>(lda), b,
                static_cast<blasint>(ldb), static_cast<float>(beta), c, static_cast<blasint>(ldc));
  } else {
    cblas_dgemm(CblasRowMajor, ta, tb, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(k), alpha, a, static_cast<blasint>(lda), b,
                static_cast<blasint>(ldb), beta, c, static_cast<blasint>(ldc));
  }
}

/// A float or double GEMM split over the intra-op threads: blocks of rows of
/// C when it has many rows, else blocks of columns (a convolution's output
/// positions), each one BLAS call. A Session runs BLAS on one thread and
/// splits here: BLAS's own threads spin-wait for one another, which on a
/// machine busy with other work measured several times slower than one
/// thread (bench/README.md).
template <typename T>
void blas_gemm_parallel(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                        const T* a, const T* b, double beta, T* c) {
  const int64_t lda = trans_a ? m : k, ldb = trans_b ? k : n;
  // About a million multiply-adds per block at least, so that a hand-off
  // to another thread pays for itself.
  const int64_t work = m * n * k;
  const int threads = intra_op_threads();
  if (threads <= 1 || work < (int64_t{1} << 21)) {
    blas_gemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, n);
    return;
  }
  if (m >= 4 * threads && m >= n / 8) {
    const int64_t grain = std::max<int64_t>(4, (int64_t{1} << 20) / std::max<int64_t>(1, n * k));
    parallel_split(m, grain, [&](int64_t i0, int64_t i1) {
      const T* ab = trans_a ? a + i0 : a + i0 * lda;
      blas_gemm(trans_a, trans_b, i1 - i0, n, k, alpha, ab, lda, b, ldb, beta, c + i0 * n, n);
    });
  } else {
    const int64_t grain = std::max<int64_t>(16, (int64_t{1} << 20) / std::max<int64_t>(1, m * k));
    parallel_split(n, grain, [&](int64_t j0, int64_t j1) {
      const T* bb = trans_b ? b + j0 * ldb : b + j0;
      blas_gemm(trans_a, trans_b, m, j1 - j0, k, alpha, a, lda, bb, ldb, beta, c + j0, n);
    });
  }
}

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
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    blas_gemm_parallel(trans_a, trans_b, m, n, k, alpha, a, b, beta, c);
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
