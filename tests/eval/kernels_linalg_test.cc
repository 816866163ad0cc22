// Tests for MatMul, Gemm and Einsum (src/eval/kernels/linalg/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::values;

template <typename T>
Tensor iota(std::vector<int64_t> shape, DataType dt = ir::data_type_of<T>()) {
  Tensor t(dt, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(i);
  return t;
}

TEST(MatMul, FloatUsesBlasAndMatchesHandResult) {
  // [[0,1,2],[3,4,5]] x [[0,1],[2,3],[4,5]] = [[10,13],[28,40]]
  auto out = run_op("MatMul", {iota<float>({2, 3}), iota<float>({3, 2})});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(10, 13, 28, 40));
  auto d = run_op("MatMul", {iota<double>({2, 3}), iota<double>({3, 2})});
  EXPECT_THAT(values<double>(d[0]), ElementsAre(10, 13, 28, 40));
  auto i = run_op("MatMul", {iota<int32_t>({2, 3}), iota<int32_t>({3, 2})});
  EXPECT_THAT(values<int32_t>(i[0]), ElementsAre(10, 13, 28, 40));
  auto u = run_op("MatMul", {iota<uint64_t>({2, 3}), iota<uint64_t>({3, 2})});
  EXPECT_THAT(values<uint64_t>(u[0]), ElementsAre(10, 13, 28, 40));
}

TEST(MatMul, OneDimensionalOperandsDropTheirAxis) {
  auto vm = run_op("MatMul", {iota<float>({3}), iota<float>({3, 2})});
  EXPECT_EQ(vm[0].tensor().shape(), (std::vector<int64_t>{2}));
  EXPECT_THAT(values<float>(vm[0]), ElementsAre(10, 13));
  auto mv = run_op("MatMul", {iota<float>({2, 3}), iota<float>({3})});
  EXPECT_THAT(values<float>(mv[0]), ElementsAre(5, 14));
  auto vv = run_op("MatMul", {iota<float>({3}), iota<float>({3})});
  EXPECT_EQ(vv[0].tensor().rank(), 0);
  EXPECT_THAT(values<float>(vv[0]), ElementsAre(5));
}

TEST(MatMul, BroadcastsBatchDimensions) {
  // A [2,1,1,2] (batch 2x1), B [3,2,1] (batch 3) -> [2,3,1,1].
  auto out = run_op("MatMul", {iota<float>({2, 1, 1, 2}), iota<float>({3, 2, 1})});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 3, 1, 1}));
  // a0=[0,1], a1=[2,3]; b_j = [2j, 2j+1]: a0.b_j = 2j+1; a1.b_j = 10j+3.
  EXPECT_THAT(values<float>(out[0]), ElementsAre(1, 3, 5, 3, 13, 23));
  // A stacked against one B folds into a single GEMM.
  auto stacked = run_op("MatMul", {iota<float>({2, 1, 2}), iota<float>({2, 1})});
  EXPECT_THAT(values<float>(stacked[0]), ElementsAre(1, 3));
}

TEST(MatMul, Float16ComputesInFloat) {
  Tensor a(DataType::kFloat16, {1, 2}), b(DataType::kFloat16, {2, 1});
  a.data<float16>()[0] = float16(1.5f);
  a.data<float16>()[1] = float16(2.0f);
  b.data<float16>()[0] = float16(2.0f);
  b.data<float16>()[1] = float16(0.25f);
  auto out = run_op("MatMul", {a, b});
  EXPECT_EQ(static_cast<float>(out[0].tensor().data<float16>()[0]), 3.5f);
}

TEST(MatMul, Errors) {
  try {
    run_op("MatMul", {iota<float>({2, 3}), iota<float>({2, 3})});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("MatMul: inner dimensions differ"));
  }
  try {
    run_op("MatMul", {iota<int8_t>({1, 1}), iota<int8_t>({1, 1})});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("MatMul: element type int8 is not supported"));
  }
}

TEST(Gemm, TransposesScalesAndBroadcastsC) {
  // A^T with A = [[0,1],[2,3],[4,5]] (3x2) -> [[0,2,4],[1,3,5]]; B = identity-ish [3,2].
  Tensor a = iota<float>({3, 2});
  Tensor b = Tensor::from<float>({1, 0, 0, 1, 1, 1}, {3, 2});
  Tensor c = Tensor::from<float>({10, 20});
  auto out =
      run_op("Gemm", {a, b, c},
             {A::make_int("transA", 1), A::make_float("alpha", 2), A::make_float("beta", 0.5f)});
  // A^T B = [[0+4, 2+4],[1+5, 3+5]] = [[4,6],[6,8]]; *2 + [5,10].
  EXPECT_THAT(values<float>(out[0]), ElementsAre(13, 22, 17, 26));
  // transB with a scalar C, C omitted (v11+).
  auto tb = run_op("Gemm", {iota<float>({1, 2}), iota<float>({3, 2}), Tensor::scalar(1.0f)},
                   {A::make_int("transB", 1)});
  EXPECT_THAT(values<float>(tb[0]), ElementsAre(2, 4, 6));
  auto noc = run_op("Gemm", {iota<int64_t>({1, 2}), iota<int64_t>({2, 1})});
  EXPECT_THAT(values<int64_t>(noc[0]), ElementsAre(1));
  try {
    run_op("Gemm", {iota<float>({2, 2}), iota<float>({2, 2}), iota<float>({3})});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Gemm: "));
  }
}

// The float GEMM backend (oneDNN's sgemm when built with it, else OpenBLAS):
// every transpose combination, with alpha, beta and a broadcast bias.
TEST(Gemm, FloatBackendHandlesTransposesAlphaBetaAndBias) {
  const Tensor a = Tensor::from<float>({1, 2, 3, 4}, {2, 2});
  const Tensor b = Tensor::from<float>({5, 6, 7, 8}, {2, 2});
  // A B = [[19,22],[43,50]].
  auto nn = run_op("Gemm", {a, b});
  EXPECT_THAT(values<float>(nn[0]), ElementsAre(19, 22, 43, 50));
  // A^T B = [[26,30],[38,44]]; * 0.5 + 2 * row bias [10,20].
  auto tn =
      run_op("Gemm", {a, b, Tensor::from<float>({10, 20}, {2})},
             {A::make_int("transA", 1), A::make_float("alpha", 0.5f), A::make_float("beta", 2)});
  EXPECT_THAT(values<float>(tn[0]), ElementsAre(33, 55, 39, 62));
  // A B^T = [[17,23],[39,53]]; * 2 - column bias [[1],[2]].
  auto nt =
      run_op("Gemm", {a, b, Tensor::from<float>({1, 2}, {2, 1})},
             {A::make_int("transB", 1), A::make_float("alpha", 2), A::make_float("beta", -1)});
  EXPECT_THAT(values<float>(nt[0]), ElementsAre(33, 45, 76, 104));
  // A^T B^T = (B A)^T = [[23,31],[34,46]]; + 0.5 * scalar bias 4.
  auto tt =
      run_op("Gemm", {a, b, Tensor::scalar(4.0f)},
             {A::make_int("transA", 1), A::make_int("transB", 1), A::make_float("beta", 0.5f)});
  EXPECT_THAT(values<float>(tt[0]), ElementsAre(25, 33, 36, 48));
}

// Products large enough to be split over two intra-op threads (row blocks
// and column blocks), against a direct evaluation of the definition.
TEST(Gemm, FloatBackendSplitOverThreadsMatchesDefinition) {
  const IntraOpThreads threads(2);
  struct Case {
    int64_t m, n, k;
  };
  for (const Case shape : {Case{256, 96, 128}, Case{8, 4096, 96}}) {
    for (int trans_a = 0; trans_a < 2; ++trans_a) {
      for (int trans_b = 0; trans_b < 2; ++trans_b) {
        const int64_t m = shape.m, n = shape.n, k = shape.k;
        Tensor a(DataType::kFloat,
                 trans_a ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k});
        Tensor b(DataType::kFloat,
                 trans_b ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
        Tensor c(DataType::kFloat, {n});
        // Small integers keep every sum exact in float.
        for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = static_cast<float>(i % 7 - 3);
        for (int64_t i = 0; i < b.numel(); ++i) b.data<float>()[i] = static_cast<float>(i % 5 - 2);
        for (int64_t j = 0; j < n; ++j) c.data<float>()[j] = static_cast<float>(j % 3);
        auto out = run_op("Gemm", {a, b, c},
                          {A::make_int("transA", trans_a), A::make_int("transB", trans_b),
                           A::make_float("alpha", 2), A::make_float("beta", 3)});
        const float* av = a.data<float>();
        const float* bv = b.data<float>();
        const std::vector<float> got = values<float>(out[0]);
        ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t p = 0; p < k; ++p)
              sum += static_cast<double>(trans_a ? av[p * m + i] : av[i * k + p]) *
                     (trans_b ? bv[j * k + p] : bv[p * n + j]);
            const double want = 2 * sum + 3 * (j % 3);
            ASSERT_EQ(got[i * n + j], want) << "m=" << m << " n=" << n << " transA=" << trans_a
                                            << " transB=" << trans_b << " at " << i << "," << j;
          }
        }
      }
    }
  }
}

TEST(Einsum, MatmulTraceDiagonalTransposeAndImplicitOutput) {
  auto mm = run_op("Einsum", {iota<float>({2, 3}), iota<float>({3, 2})},
                   {A::make_string("equation", "ij,jk->ik")});
  EXPECT_THAT(values<float>(mm[0]), ElementsAre(10, 13, 28, 40));
  auto implicit = run_op("Einsum", {iota<float>({2, 3}), iota<float>({3, 2})},
                         {A::make_string("equation", "ij,jk")});
  EXPECT_THAT(values<float>(implicit[0]), ElementsAre(10, 13, 28, 40));
  auto trace = run_op("Einsum", {iota<float>({3, 3})}, {A::make_string("equation", "ii")});
  EXPECT_EQ(trace[0].tensor().rank(), 0);
  EXPECT_THAT(values<float>(trace[0]), ElementsAre(12));
  auto diag = run_op("Einsum", {iota<int32_t>({3, 3})}, {A::make_string("equation", "ii->i")});
  EXPECT_THAT(values<int32_t>(diag[0]), ElementsAre(0, 4, 8));
  auto tr =
      run_op("Einsum", {iota<float>({2, 2, 3})}, {A::make_string("equation", "...ij->...ji")});
  EXPECT_EQ(tr[0].tensor().shape(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_THAT(values<float>(tr[0]), ElementsAre(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11));
  // Implicit output orders letters by character code: "ba" -> "ab" is a transpose.
  auto implicit_t = run_op("Einsum", {iota<float>({2, 3})}, {A::make_string("equation", "ba")});
  EXPECT_EQ(implicit_t[0].tensor().shape(), (std::vector<int64_t>{3, 2}));
  auto batched = run_op("Einsum", {iota<float>({2, 1, 2}), iota<float>({2, 2, 1})},
                        {A::make_string("equation", "bij, bjk -> bik")});
  // b0: [0,1].[0,1] = 1; b1: [2,3].[2,3] = 13.
  EXPECT_THAT(values<float>(batched[0]), ElementsAre(1, 13));
}

TEST(Einsum, Errors) {
  try {
    run_op("Einsum", {iota<float>({2, 3}), iota<float>({2, 2})},
           {A::make_string("equation", "ij,jk->ik")});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Einsum: label 'j' has sizes 3 and 2"));
  }
  try {
    run_op("Einsum", {iota<float>({2, 3})}, {A::make_string("equation", "i->i")});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rank 2"));
  }
}

}  // namespace
}  // namespace onnxscript::eval
