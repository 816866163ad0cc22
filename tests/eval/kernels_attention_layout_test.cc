// Tests for the layout kernels a transformer spends its non-GEMM time in:
// Transpose (merged axes, row runs, tiled 2-D transposes, threads), batched
// MatMul split over the batch, and Slice's row copies. Expected values come
// from index arithmetic written out in the test.
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "eval/util/parallel.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using A = ir::Attribute;
using test_util::values;

// A float tensor of `shape` whose element i is i (exact in float up to 2^24).
Tensor iota(const std::vector<int64_t>& shape) {
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

// The flat input index of every output element of transposing `shape` by
// `perm`, by walking the output's multi-index.
std::vector<int64_t> transposed_indices(const std::vector<int64_t>& shape,
                                        const std::vector<int64_t>& perm) {
  const size_t rank = shape.size();
  std::vector<int64_t> in_strides(rank, 1), out_shape(rank);
  for (size_t d = rank; d-- > 1;) in_strides[d - 1] = in_strides[d] * shape[d];
  for (size_t i = 0; i < rank; ++i) out_shape[i] = shape[perm[i]];
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  std::vector<int64_t> result;
  std::vector<int64_t> idx(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += idx[i] * in_strides[perm[i]];
    result.push_back(src);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return result;
}

void check_transpose(const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
  const Tensor x = iota(shape);
  const auto out = run_op("Transpose", {x}, {A::make_ints("perm", perm)}, 1, 13);
  std::vector<int64_t> out_shape;
  for (int64_t p : perm) out_shape.push_back(shape[p]);
  EXPECT_EQ(out[0].tensor().shape().to_vector(), out_shape);
  const auto got = values<float>(out[0]);
  const auto want = transposed_indices(shape, perm);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != static_cast<float>(want[i])) {
      ADD_FAILURE() << "shape " << ::testing::PrintToString(shape) << " perm "
                    << ::testing::PrintToString(perm) << ": element " << i << " is " << got[i]
                    << ", expected " << want[i];
      return;
    }
}

TEST(TransposeLayout, EveryPermutationUpToRank4) {
  // Odd sizes (tile tails), a dimension of 1 (dropped), adjacent axes kept
  // in order (merged).
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{
           {5}, {3, 17}, {17, 33}, {2, 1, 19}, {7, 3, 5}, {2, 3, 1, 20}, {3, 18, 2, 17}}) {
    std::vector<int64_t> perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      check_transpose(shape, perm);
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(TransposeLayout, AttentionShapesOnTwoThreads) {
  const IntraOpThreads threads(2);
  // A ViT-S head split [S, H, D] -> [H, S, D], the key transpose
  // [S, H, D] -> [H, D, S], and a 4-D [B, S, H, D] -> [B, H, D, S].
  check_transpose({197, 6, 64}, {1, 0, 2});
  check_transpose({197, 6, 64}, {1, 2, 0});
  check_transpose({2, 128, 4, 64}, {0, 2, 3, 1});
  check_transpose({2, 128, 4, 64}, {0, 2, 1, 3});
}

TEST(TransposeLayout, OtherElementSizesAndEdges) {
  Tensor s(DataType::kString, {2, 3});
  const char* words[] = {"a", "b", "c", "d", "e", "f"};
  for (int i = 0; i < 6; ++i) s.data<std::string>()[i] = words[i];
  EXPECT_THAT(values<std::string>(run_op("Transpose", {s}, {}, 1, 13)[0]),
              ::testing::ElementsAre("a", "d", "b", "e", "c", "f"));
  Tensor d(DataType::kDouble, {2, 1, 2});
  for (int i = 0; i < 4; ++i) d.data<double>()[i] = i + 0.5;
  EXPECT_THAT(values<double>(run_op("Transpose", {d}, {A::make_ints("perm", {2, 1, 0})}, 1, 13)[0]),
              ::testing::ElementsAre(0.5, 2.5, 1.5, 3.5));
  Tensor u8(DataType::kUint8, {3, 2});
  for (int i = 0; i < 6; ++i) u8.data<uint8_t>()[i] = static_cast<uint8_t>(i);
  EXPECT_THAT(values<uint8_t>(run_op("Transpose", {u8}, {}, 1, 13)[0]),
              ::testing::ElementsAre(0, 2, 4, 1, 3, 5));
  // Empty and scalar inputs.
  EXPECT_EQ(run_op("Transpose", {iota({0, 3})}, {}, 1, 13)[0].tensor().shape().to_vector(),
            (std::vector<int64_t>{3, 0}));
  EXPECT_THAT(values<float>(run_op("Transpose", {iota({})}, {}, 1, 13)[0]),
              ::testing::ElementsAre(0.0f));
  EXPECT_THAT(test_util::error_of([&] {
                run_op("Transpose", {iota({2, 3})}, {A::make_ints("perm", {0, 0})}, 1, 13);
              }),
              ::testing::HasSubstr("Transpose: perm repeats axis 0"));
}

// numpy.matmul of float tensors [batch..., m, k] x [batch..., k, n] (equal
// batch shapes, or B without a batch), in double.
std::vector<double> matmul_ref(const Tensor& a, const Tensor& b, int64_t nb, int64_t m, int64_t k,
                               int64_t n, bool shared_b) {
  std::vector<double> c(nb * m * n, 0.0);
  for (int64_t q = 0; q < nb; ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += double{a.data<float>()[(q * m + i) * k + p]} *
               double{b.data<float>()[((shared_b ? 0 : q) * k + p) * n + j]};
        c[(q * m + i) * n + j] = s;
      }
  return c;
}

Tensor small_ints(const std::vector<int64_t>& shape, unsigned seed) {
  std::mt19937 gen(seed);
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data<float>()[i] = static_cast<float>(static_cast<int>(gen() % 7) - 3);
  return t;
}

TEST(BatchedMatMul, SplitOverTheBatch) {
  for (int threads : {1, 2}) {
    const IntraOpThreads scope(threads);
    // 12 attention-sized products (enough work to split by batch), and a
    // few small ones (below the split threshold).
    for (const auto& [b0, b1, m, k, n] :
         std::vector<std::array<int64_t, 5>>{{2, 6, 65, 64, 65}, {1, 3, 5, 4, 7}}) {
      const Tensor a = small_ints({b0, b1, m, k}, 1), b = small_ints({b0, b1, k, n}, 2);
      const auto got = values<float>(run_op("MatMul", {a, b}, {}, 1, 13)[0]);
      const auto want = matmul_ref(a, b, b0 * b1, m, k, n, false);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "threads " << threads << " element " << i;
    }
  }
  // A batch broadcast on A's side: A [1, 3, m, k] against B [4, 3, k, n]
  // gives [4, 3, m, n], product (x, y) using A's matrix y.
  const IntraOpThreads scope(2);
  const Tensor a = small_ints({1, 3, 40, 32}, 3), b = small_ints({4, 3, 32, 48}, 4);
  const auto got = values<float>(run_op("MatMul", {a, b}, {}, 1, 13)[0]);
  ASSERT_EQ(got.size(), size_t{4 * 3 * 40 * 48});
  for (int64_t x = 0; x < 4; ++x)
    for (int64_t y = 0; y < 3; ++y)
      for (int64_t i = 0; i < 40; ++i)
        for (int64_t j = 0; j < 48; ++j) {
          double s = 0;
          for (int64_t p = 0; p < 32; ++p)
            s += double{a.data<float>()[(y * 40 + i) * 32 + p]} *
                 double{b.data<float>()[((x * 3 + y) * 32 + p) * 48 + j]};
          ASSERT_EQ(got[((x * 3 + y) * 40 + i) * 48 + j], s);
        }
}

TEST(SliceRows, UnitStepOnTheLastAxis) {
  // [2, 5, 12] sliced to [1:2, 1:4, 4:8]: rows of 4 contiguous elements.
  const Tensor x = iota({2, 5, 12});
  Tensor starts(DataType::kInt64, {3}), ends(DataType::kInt64, {3});
  const int64_t s[] = {1, 1, 4}, e[] = {2, 4, 8};
  std::copy(s, s + 3, starts.data<int64_t>());
  std::copy(e, e + 3, ends.data<int64_t>());
  const auto got = values<float>(run_op("Slice", {x, starts, ends}, {}, 1, 13)[0]);
  std::vector<float> want;
  for (int j = 1; j < 4; ++j)
    for (int l = 4; l < 8; ++l) want.push_back(static_cast<float>(60 + j * 12 + l));
  EXPECT_EQ(got, want);
}

TEST(SliceRows, LargeSlicesOnTwoThreads) {
  const IntraOpThreads threads(2);
  const Tensor x = iota({3, 200, 300});
  for (int64_t step : {1, 2}) {
    // [:, 10:190, 5:295:step]
    Tensor starts(DataType::kInt64, {2}), ends(DataType::kInt64, {2}), axes(DataType::kInt64, {2}),
        steps(DataType::kInt64, {2});
    const int64_t s[] = {10, 5}, e[] = {190, 295}, a[] = {1, 2}, st[] = {1, step};
    std::copy(s, s + 2, starts.data<int64_t>());
    std::copy(e, e + 2, ends.data<int64_t>());
    std::copy(a, a + 2, axes.data<int64_t>());
    std::copy(st, st + 2, steps.data<int64_t>());
    const auto got = values<float>(run_op("Slice", {x, starts, ends, axes, steps}, {}, 1, 13)[0]);
    std::vector<float> want;
    for (int i = 0; i < 3; ++i)
      for (int j = 10; j < 190; ++j)
        for (int l = 5; l < 295; l += static_cast<int>(step))
          want.push_back(static_cast<float>((i * 200 + j) * 300 + l));
    EXPECT_EQ(got, want) << "step " << step;
  }
}

}  // namespace
}  // namespace onnxscript::eval
