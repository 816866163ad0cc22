// The default rules (and the opt-in Gemm rule), each with a golden test that
// it fires (tests/data/golden/rewriter/*.txt; scripts/update-golden.sh
// rewrites them, and each was checked by hand against the comment above its
// test), a direct check of what it must produce, a case where it must not
// fire, and a test that the rewritten model computes what the original does
// on random inputs.

#include <gtest/gtest.h>

#include "golden.h"
#include "rewriter_test_util.h"

namespace onnxscript {
namespace {

using rewriter::Rule;
using testing::count_after;
using testing::expect_golden;
using testing::expect_same_results;
using testing::rewritten_text;

Tensor random(ir::Dims shape, uint64_t seed) {
  // Centred on zero, so Min/Max/Clip bounds at +-0.5 cut on both sides.
  Tensor t = Tensor::rand(std::move(shape), seed);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = t.data<float>()[i] * 4 - 2;
  return t;
}

// ---- cast-cast -------------------------------------------------------------

// int32 -> int64 loses nothing, so y = Cast<to=float>(x) directly.
const char* kCastCast = R"(<ir_version: 9, opset_import: ["" : 18]>
g (int32[2,3] x) => (float[2,3] y) {
   a = Cast <to: int = 7> (x)
   y = Cast <to: int = 1> (a)
}
)";

TEST(GoldenRewriter, CastCast) {
  const std::string out = rewritten_text(kCastCast, {rewriter::cast_cast_rule()});
  EXPECT_NE(out.find("y = Cast <to: int = 1> (x)"), std::string::npos) << out;
  EXPECT_EQ(out.find("int = 7"), std::string::npos) << out;
  expect_golden("rewriter/cast_cast", out);
}

TEST(RewriterRules, CastCastKeepsResults) {
  Tensor x = Tensor::from<int32_t>({-7, 0, 3, 2147483647, -2147483647 - 1, 42}, {2, 3});
  expect_same_results(kCastCast, {x}, {rewriter::cast_cast_rule()}, {0, 0});
}

// float -> int32 -> float truncates: both casts stay.
TEST(RewriterRules, CastCastKeepsALossyChain) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[4] x) => (float[4] y) {
   a = Cast <to: int = 6> (x)
   y = Cast <to: int = 1> (a)
}
)";
  EXPECT_EQ(count_after(model, "Cast", {rewriter::cast_cast_rule()}), 2u);
  expect_same_results(model, {random({4}, 1)}, {rewriter::cast_cast_rule()}, {0, 0});
}

// ---- transpose-transpose ---------------------------------------------------

// [1,2,0] then [1,0,2] is x[k,j,i] at y[i,j,k]: one Transpose with [2,1,0];
// [1,2,0] then [2,0,1] is the identity: z is x (through an Identity, z being
// a graph output).
const char* kTransposes = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3,4] x) => (float[4,3,2] y, float[2,3,4] z) {
   a = Transpose <perm: ints = [1, 2, 0]> (x)
   y = Transpose <perm: ints = [1, 0, 2]> (a)
   b = Transpose <perm: ints = [1, 2, 0]> (x)
   z = Transpose <perm: ints = [2, 0, 1]> (b)
}
)";

TEST(GoldenRewriter, TransposeTranspose) {
  const std::string out = rewritten_text(kTransposes, {rewriter::transpose_transpose_rule()});
  EXPECT_NE(out.find("y = Transpose <perm: ints = [2, 1, 0]> (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("z = Identity (x)"), std::string::npos) << out;
  expect_golden("rewriter/transpose_transpose", out);
}

TEST(RewriterRules, TransposeTransposeKeepsResults) {
  expect_same_results(kTransposes, {random({2, 3, 4}, 2)}, {rewriter::transpose_transpose_rule()},
                      {0, 0});
}

// ---- reshape-reshape -------------------------------------------------------

// [2,3,4] -> [6,4] -> [4,-1]: one Reshape to [4,-1]. The second chain's
// outer shape copies a dimension (0), so it stays.
const char* kReshapes = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3,4] x) => (float[4,6] y, float[6,4] z)
   <int64[2] s1 = {6, 4}, int64[2] s2 = {4, -1}, int64[2] s3 = {0, -1}>
{
   a = Reshape (x, s1)
   y = Reshape (a, s2)
   b = Reshape (x, s1)
   c = Neg (b)
   z = Reshape (c, s3)
   d = Reshape (x, s1)
   w = Reshape (d, s3)
}
)";

TEST(GoldenRewriter, ReshapeReshape) {
  const std::string out = rewritten_text(kReshapes, {rewriter::reshape_reshape_rule()});
  EXPECT_NE(out.find("y = Reshape (x, s2)"), std::string::npos) << out;
  EXPECT_NE(out.find("w = Reshape (d, s3)"), std::string::npos) << out;
  expect_golden("rewriter/reshape_reshape", out);
}

TEST(RewriterRules, ReshapeReshapeKeepsResults) {
  expect_same_results(kReshapes, {random({2, 3, 4}, 3)}, {rewriter::reshape_reshape_rule()},
                      {0, 0});
}

// ---- squeeze/unsqueeze -----------------------------------------------------

// Unsqueeze at 0 then Squeeze at -3 (of rank 3: 0) gives x back; Squeeze at
// 1 of x (a static 1) then Unsqueeze at -2 (of rank 3: 1) too. The last pair
// names different axes and stays.
const char* kSqueezes = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x, float[2,1,3] v) => (float[2,3] y, float[2,1,3] z, float[2,3,1] w)
   <int64[1] a0 = {0}, int64[1] am3 = {-3}, int64[1] a1 = {1}, int64[1] am2 = {-2},
    int64[1] a2 = {2}>
{
   u = Unsqueeze (x, a0)
   y = Squeeze (u, am3)
   s = Squeeze (v, a1)
   z = Unsqueeze (s, am2)
   t = Squeeze (v, a1)
   w = Unsqueeze (t, a2)
}
)";

TEST(GoldenRewriter, SqueezeUnsqueeze) {
  const std::string out = rewritten_text(
      kSqueezes, {rewriter::squeeze_unsqueeze_rule(), rewriter::unsqueeze_squeeze_rule()});
  EXPECT_NE(out.find("y = Identity (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("z = Identity (v)"), std::string::npos) << out;
  EXPECT_NE(out.find("w = Unsqueeze (t, a2)"), std::string::npos) << out;
  expect_golden("rewriter/squeeze_unsqueeze", out);
}

TEST(RewriterRules, SqueezeUnsqueezeKeepsResults) {
  expect_same_results(kSqueezes, {random({2, 3}, 4), random({2, 1, 3}, 5)},
                      {rewriter::squeeze_unsqueeze_rule(), rewriter::unsqueeze_squeeze_rule()},
                      {0, 0});
}

// Without a declared shape the Squeeze might fail on a dimension that is not
// 1: the pair stays.
TEST(RewriterRules, UnsqueezeSqueezeNeedsStaticOnes) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,N,3] v) => (float[2,N,3] z) <int64[1] a1 = {1}> {
   s = Squeeze (v, a1)
   z = Unsqueeze (s, a1)
}
)";
  EXPECT_EQ(count_after(model, "Squeeze", {rewriter::unsqueeze_squeeze_rule()}), 1u);
}

// ---- conv-bn ---------------------------------------------------------------

// W = {1, 2} (two output channels, 1x1), scale {2, 3}, bias {0.5, -1}, mean
// {1, 2}, var {3, 8}, epsilon 1: f = scale / sqrt(var + 1) = {1, 1}, so
// W' = {1, 2} and, without a Conv bias, B' = -mean * f + bias = {-0.5, -3};
// with B = {1, 1}, B' = (B - mean) * f + bias = {0.5, -2}. The Conv keeps
// its pads.
const char* kConvBn = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[1,1,3,3] x) => (float[1,2,5,5] y, float[1,2,5,5] z)
   <float[2,1,1,1] w = {1, 2}, float[2] b = {1, 1}, float[2] scale = {2, 3},
    float[2] bias = {0.5, -1}, float[2] mean = {1, 2}, float[2] var = {3, 8}>
{
   c = Conv <pads: ints = [1, 1, 1, 1]> (x, w)
   y = BatchNormalization <epsilon: float = 1> (c, scale, bias, mean, var)
   d = Conv <pads: ints = [1, 1, 1, 1]> (x, w, b)
   z = BatchNormalization <epsilon: float = 1> (d, scale, bias, mean, var)
}
)";

TEST(GoldenRewriter, ConvBatchNormalization) {
  ir::Model model = text::parse_model(kConvBn);
  const std::string out =
      rewritten_text(model, {rewriter::conv_bn_rule(), rewriter::conv_bias_bn_rule()});
  EXPECT_EQ(out.find("BatchNormalization"), std::string::npos) << out;
  // The new initializers, by what the two Convs read.
  std::vector<std::vector<float>> biases;
  for (const ir::Node* n : model.graph().nodes()) {
    ASSERT_EQ(n->op_type(), "Conv");
    ASSERT_EQ(n->inputs().size(), 3u);
    EXPECT_EQ(n->attribute("pads")->as_ints(), (std::vector<int64_t>{1, 1, 1, 1}));
    const ir::Tensor* w = n->input(1)->const_value();
    const ir::Tensor* b = n->input(2)->const_value();
    ASSERT_TRUE(w && b);
    EXPECT_EQ(std::vector<float>(w->data<float>(), w->data<float>() + 2),
              (std::vector<float>{1, 2}));
    biases.emplace_back(b->data<float>(), b->data<float>() + 2);
  }
  EXPECT_EQ(biases, (std::vector<std::vector<float>>{{-0.5f, -3.0f}, {0.5f, -2.0f}}));
  expect_golden("rewriter/conv_bn", out);
}

TEST(RewriterRules, ConvBatchNormalizationKeepsResults) {
  expect_same_results(kConvBn, {random({1, 1, 3, 3}, 6)},
                      {rewriter::conv_bn_rule(), rewriter::conv_bias_bn_rule()});
}

// Bigger weights and statistics that are not round numbers: 3x3 kernels,
// three channels in, four out, groups of one, strides 2.
TEST(RewriterRules, ConvBatchNormalizationKeepsResultsOnRandomWeights) {
  auto list = [](const Tensor& t) {
    std::string s;
    for (int64_t i = 0; i < t.numel(); ++i)
      s += fmt::format("{}{}", i ? ", " : "", t.data<float>()[i]);
    return s;
  };
  Tensor var = Tensor::rand({4}, 11);
  const std::string model = fmt::format(
      R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3,7,7] x) => (float[2,4,3,3] y)
   <float[4,3,3,3] w = {{{}}}, float[4] scale = {{{}}}, float[4] bias = {{{}}},
    float[4] mean = {{{}}}, float[4] var = {{{}}}>
{{
   c = Conv <strides: ints = [2, 2]> (x, w)
   y = BatchNormalization (c, scale, bias, mean, var)
}}
)",
      list(random({4, 3, 3, 3}, 7)), list(random({4}, 8)), list(random({4}, 9)),
      list(random({4}, 10)), list(var));
  EXPECT_EQ(count_after(model, "BatchNormalization", {rewriter::conv_bn_rule()}), 0u);
  expect_same_results(model, {random({2, 3, 7, 7}, 12)}, {rewriter::conv_bn_rule()});
}

// Weights that are a graph input are not constant: nothing folds.
TEST(RewriterRules, ConvBatchNormalizationNeedsConstantWeights) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[1,1,3,3] x, float[2,1,1,1] w) => (float[1,2,3,3] y)
   <float[2] scale = {2, 3}, float[2] bias = {0.5, -1}, float[2] mean = {1, 2}, float[2] var = {3, 8}>
{
   c = Conv (x, w)
   y = BatchNormalization (c, scale, bias, mean, var)
}
)";
  EXPECT_EQ(count_after(model, "BatchNormalization", {rewriter::conv_bn_rule()}), 1u);
}

// ---- Min/Max -> Clip -------------------------------------------------------

// Min(Max(x, -0.5), 0.5) and Max(Min(0.5, x), -0.5) (the Min's inputs the
// other way round: commutative matching) are each one Clip; Max(x, 0) alone
// is Clip(x, 0) and Min(x, 0.25) is Clip(x, , 0.25). Scalar bounds are
// used as they are; zero, of shape [1], becomes a scalar initializer.
const char* kClips = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] y, float[2,3] z, float[2,3] r, float[2,3] s)
   <float lo = {-0.5}, float hi = {0.5}, float[1] zero = {0}, float q = {0.25}>
{
   a = Max (x, lo)
   y = Min (a, hi)
   b = Min (hi, x)
   z = Max (b, lo)
   r = Max (x, zero)
   s = Min (x, q)
}
)";

TEST(GoldenRewriter, MinMaxClip) {
  ir::Model model = text::parse_model(kClips);
  const std::string out = rewritten_text(model, rewriter::default_rules());
  size_t clips = 0;
  for (const ir::Node* n : model.graph().nodes()) {
    EXPECT_EQ(n->op_type(), "Clip") << out;
    clips += n->op_type() == "Clip";
  }
  EXPECT_EQ(clips, 4u);
  EXPECT_NE(out.find("r = Clip (x, "), std::string::npos) << out;
  EXPECT_NE(out.find("s = Clip (x, \"\", q)"), std::string::npos) << out;
  expect_golden("rewriter/min_max_clip", out);
}

TEST(RewriterRules, MinMaxClipKeepsResults) {
  expect_same_results(kClips, {random({2, 3}, 13)}, rewriter::default_rules(), {0, 0});
}

// lo > hi (Min(Max(x, 0.5), -0.5) is -0.5 everywhere) and a bound of another
// shape than a scalar broadcast: no Clip.
TEST(RewriterRules, MinMaxClipConditions) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] y, float[2,3] z)
   <float lo = {0.5}, float hi = {-0.5}, float[3] v = {0, 1, 2}>
{
   a = Max (x, lo)
   y = Min (a, hi)
   z = Max (x, v)
}
)";
  EXPECT_EQ(count_after(model, "Clip", {rewriter::min_max_clip_rule()}), 0u);
  EXPECT_EQ(count_after(model, "Clip", {rewriter::max_clip_rule()}), 1u);  // only Max(x, lo)
  expect_same_results(model, {random({2, 3}, 14)}, rewriter::default_rules(), {0, 0});
}

// ---- MatMul + Add -> Gemm (opt-in) -----------------------------------------

// a [2,3] x b [3,4] + c [4]: one Gemm. The default rules leave it alone.
const char* kGemm = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] a, float[3,4] b, float[4] c) => (float[2,4] y) {
   p = MatMul (a, b)
   y = Add (c, p)
}
)";

TEST(GoldenRewriter, MatMulAddGemm) {
  const std::string out = rewritten_text(kGemm, {rewriter::matmul_add_gemm_rule()});
  EXPECT_NE(out.find("y = Gemm (a, b, c)"), std::string::npos) << out;
  expect_golden("rewriter/matmul_add_gemm", out);
  EXPECT_EQ(count_after(kGemm, "Gemm", rewriter::default_rules()), 0u);
}

TEST(RewriterRules, MatMulAddGemmKeepsResults) {
  expect_same_results(kGemm, {random({2, 3}, 15), random({3, 4}, 16), random({4}, 17)},
                      {rewriter::matmul_add_gemm_rule()});
}

// A rank-3 MatMul operand: no Gemm. A [2,1] bias broadcasts one way to the
// [2,4] product: Gemm.
TEST(RewriterRules, MatMulAddGemmConditions) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[5,2,3] a, float[3,4] b, float[4] c, float[2,3] a2, float[2,1] c2) => (float[5,2,4] y, float[2,4] z) {
   p = MatMul (a, b)
   y = Add (p, c)
   q = MatMul (a2, b)
   z = Add (q, c2)
}
)";
  EXPECT_EQ(count_after(model, "Gemm", {rewriter::matmul_add_gemm_rule()}), 1u);  // z's
  expect_same_results(model,
                      {random({5, 2, 3}, 18), random({3, 4}, 19), random({4}, 20),
                       random({2, 3}, 21), random({2, 1}, 22)},
                      {rewriter::matmul_add_gemm_rule()});
}

}  // namespace
}  // namespace onnxscript
