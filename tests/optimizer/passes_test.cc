// Golden tests of each pass: a small model in the textual syntax, the passes
// run over it, and the result pinned in tests/data/golden/optimizer/ (with
// what each pass counted). scripts/update-golden.sh regenerates the files;
// each was checked by hand against the comment above its test. Where a
// result is easy to state, the test also checks it directly.

#include <gtest/gtest.h>

#include "golden.h"
#include "optimizer_test_util.h"

namespace onnxscript {
namespace {

using testing::expect_golden;
using testing::optimized_text;

// dead1 and dead2 (a chain) and the unused Relu in the Loop body go; the
// Loop stays (its output is used), so does the node whose output a branch
// returns from the outer scope (kept).
TEST(GoldenOptimizer, DeadCodeElimination) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2] x, bool c) => (float[2] y, float[2] z) {
   dead1 = Neg (x)
   dead2 = Abs (dead1)
   kept = Sqrt (x)
   y = Relu (x)
   z = If (c) <then_branch: graph = t () => (kept) {
   }, else_branch: graph = e () => (e_out) {
      e_unused = Relu (x)
      e_out = Exp (x)
   }>
}
)";
  const std::string out = optimized_text(model, {"dce"});
  EXPECT_EQ(out.find("dead1"), std::string::npos);
  EXPECT_EQ(out.find("e_unused"), std::string::npos);
  EXPECT_NE(out.find("kept = Sqrt"), std::string::npos);
  expect_golden("optimizer/dce", out);
}

// Unused initializer u goes; w (used) and d (a graph input's default) stay.
// Function Unused goes, Used and Inner (called by Used) stay; opset
// "com.unused" goes, "local" (the calls' domain) and "" stay.
TEST(GoldenOptimizer, RemoveUnused) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19, "local" : 1, "com.unused" : 1]>
g (float[2] x, float[2] d) => (float[2] y)
   <float[2] w = {1, 2}, float[2] u = {3, 4}, float[2] d = {5, 6}>
{
   a = Add (x, w)
   y = local.Used (a)
}

<domain: "local", opset_import: ["" : 19, "com.unused" : 1]>
Used (a) => (b) {
   b = local.Inner (a)
}

<domain: "local", opset_import: ["" : 19]>
Inner (a) => (b) {
   b = Neg (a)
}

<domain: "local", opset_import: ["" : 19]>
Unused (a) => (b) {
   b = Abs (a)
}
)";
  const std::string out =
      optimized_text(model, {"unused-initializers", "unused-functions", "unused-opsets"});
  EXPECT_EQ(out.find("float[2] u"), std::string::npos);
  EXPECT_EQ(out.find("Unused"), std::string::npos);
  EXPECT_EQ(out.find("com.unused"), std::string::npos);
  expect_golden("optimizer/remove_unused", out);
}

// c = a + b with a = {1, 2} and b = {10, 20} folds to {11, 22}; Shape of the
// static x is {2, 3} and Size 6; the random node and the node reading a graph
// input stay. Shape's result is a graph output: it stays a node output (a
// Constant) under its name.
TEST(GoldenOptimizer, ConstantFolding) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2,3] x) => (float[2] y, int64[2] s, int64 n, float[2] r)
   <float[2] a = {1, 2}>
{
   b = Constant <value_floats: floats = [10, 20]> ()
   c = Add (a, b)
   y = Mul (c, c)
   s = Shape (x)
   n = Size (x)
   rnd = RandomUniform <shape: ints = [2]> ()
   r = Add (rnd, c)
}
)";
  const std::string out = optimized_text(model, {"fold", "dce", "unused-initializers"});
  EXPECT_NE(out.find("y = Constant <value: tensor = float[2] {121, 484}>"), std::string::npos)
      << out;
  EXPECT_NE(out.find("int64[2] {2, 3}"), std::string::npos) << out;
  EXPECT_NE(out.find("int64 {6}"), std::string::npos) << out;
  EXPECT_NE(out.find("RandomUniform"), std::string::npos);
  expect_golden("optimizer/fold", out);
}

// Expand of a 1-element tensor to 1000 floats (4000 bytes): folded under the
// default limit, not under a 1000-byte limit.
TEST(GoldenOptimizer, ConstantFoldingSizeLimit) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[1000] x) => (float[1000] y) <float[1] one = {1}, int64[1] shape = {1000}> {
   big = Expand (one, shape)
   y = Add (x, big)
}
)";
  const std::string limited = optimized_text(model, {"fold"}, {.max_output_bytes = 1000});
  EXPECT_NE(limited.find("big = Expand"), std::string::npos);
  const std::string unlimited = optimized_text(model, {"fold"});
  EXPECT_EQ(unlimited.find("Expand"), std::string::npos);
  expect_golden("optimizer/fold_size_limit", limited);
}

// Every no-op goes: Identity, Dropout without training, Cast to float of a
// float, Transpose <perm 0,1>, Reshape to {2,3} of a [2,3], x + 0, x * 1,
// 1 * x, x - 0, x / 1. Kept: Cast to int32, Add of a [3] zero to a [1]
// (broadcasting grows it), Mul by 2, Dropout with training_mode true.
// The chain from x to out collapses to one Identity that keeps out's name
// (x is a graph input, so it cannot take the name); y = Identity (x) stays.
TEST(GoldenOptimizer, IdentityElimination) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2,3] x, float[1] v) => (float[2,3] out, int32[2,3] k, float[3] grown, float[2,3] twice, float[2,3] trained, float[2,3] y)
   <float zero = {0}, float one = {1}, float two = {2}, float[3] zeros = {0, 0, 0}, int64[2] shape = {2, 3}, bool yes = {1}>
{
   a = Identity (x)
   b = Dropout (a)
   c = Cast <to: int = 1> (b)
   d = Transpose <perm: ints = [0, 1]> (c)
   e = Reshape (d, shape)
   f = Add (e, zero)
   g1 = Mul (f, one)
   h = Mul (one, g1)
   i = Sub (h, zero)
   out = Div (i, one)
   k = Cast <to: int = 6> (x)
   grown = Add (v, zeros)
   twice = Mul (x, two)
   trained = Dropout (x, "", yes)
   y = Identity (x)
}
)";
  const std::string out = optimized_text(model, {"identity"});
  EXPECT_NE(out.find("out = Identity (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("y = Identity (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("k = Cast"), std::string::npos) << out;
  EXPECT_NE(out.find("grown = Add"), std::string::npos) << out;
  EXPECT_NE(out.find("twice = Mul"), std::string::npos) << out;
  EXPECT_NE(out.find("trained = Dropout"), std::string::npos) << out;
  EXPECT_EQ(out.find("Transpose"), std::string::npos) << out;
  EXPECT_EQ(out.find("Reshape"), std::string::npos) << out;
  expect_golden("optimizer/identity", out);
}

// If (true) becomes its then branch, If (false) its else branch (returning
// an outer value: an Identity keeps the output name), an If on an input stays.
TEST(GoldenOptimizer, ConstantIf) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2] x, bool c) => (float[2] y, float[2] z, float[2] w) <bool t = {1}> {
   f = Constant <value: tensor = bool {0}> ()
   y = If (t) <then_branch: graph = then1 () => (t_out) {
      t_out = Neg (x)
   }, else_branch: graph = else1 () => (e_out) {
      e_out = Abs (x)
   }>
   z = If (f) <then_branch: graph = then2 () => (t2) {
      t2 = Neg (x)
   }, else_branch: graph = else2 () => (x) {
   }>
   w = If (c) <then_branch: graph = then3 () => (t3) {
      t3 = Neg (x)
   }, else_branch: graph = else3 () => (x) {
   }>
}
)";
  const std::string out = optimized_text(model, {"constant-if", "dce"});
  EXPECT_NE(out.find("y = Neg (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("z = Identity (x)"), std::string::npos) << out;
  expect_golden("optimizer/constant_if", out);
}

// The second Add (x, w) and the second Relu on it merge into the first;
// Add (w, x) (other order) and the RandomNormalLike pair stay separate.
TEST(GoldenOptimizer, CommonSubexpressionElimination) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2] x, float[2] w) => (float[2] y, float[2] z, float[2] r) {
   a1 = Add (x, w)
   a2 = Add (x, w)
   a3 = Add (w, x)
   b1 = Relu (a1)
   b2 = Relu (a2)
   s = Sum (b1, b2, a3)
   y = Identity (s)
   n1 = RandomNormalLike (x)
   n2 = RandomNormalLike (x)
   r = Add (n1, n2)
   z = Relu (a2)
}
)";
  const std::string out = optimized_text(model, {"cse"});
  EXPECT_EQ(out.find("a2 = "), std::string::npos);
  EXPECT_NE(out.find("n2 = RandomNormalLike"), std::string::npos);
  expect_golden("optimizer/cse", out);
}

// p and q hold the same bytes and merge into p; r differs in shape, s in
// type, d is a graph input's default: all three stay.
TEST(GoldenOptimizer, InitializerDeduplication) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2] x, float[2] d) => (float[2] y)
   <float[2] p = {1, 2}, float[2] q = {1, 2}, float[2,1] r = {1, 2}, double[2] s = {1, 2}, float[2] d = {1, 2}>
{
   a = Add (x, p)
   b = Add (a, q)
   c = Add (b, d)
   rr = Reshape (r, shape)
   shape = Constant <value: tensor = int64[1] {2}> ()
   ss = Cast <to: int = 1> (s)
   e = Add (c, rr)
   y = Add (e, ss)
}
)";
  const std::string out = optimized_text(model, {"dedup-initializers"});
  EXPECT_EQ(out.find("float[2] q"), std::string::npos);
  EXPECT_NE(out.find("b = Add (a, p)"), std::string::npos) << out;
  expect_golden("optimizer/dedup_initializers", out);
}

// Two calls of Scale (alpha from the call, then from the default) and a
// call of Twice, which calls Scale: everything inlined, nested calls in the
// next round; the attribute references resolved; names fresh; the unused
// functions then removed.
TEST(GoldenOptimizer, FunctionInlining) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19, "local" : 1]>
g (float[2] x) => (float[2] y, float[2] z, float[2] w) {
   y = local.Scale <alpha: float = 3> (x)
   z = local.Scale (x)
   w = local.Twice (x)
}

<domain: "local", opset_import: ["" : 19]>
Scale <alpha: float = 2> (a) => (b) {
   k = Constant <value_float: float = @alpha> ()
   b = Mul (a, k)
}

<domain: "local", opset_import: ["" : 19, "local" : 1]>
Twice (a) => (b) {
   k = local.Scale (a)
   b = local.Scale (k)
}
)";
  const std::string out = optimized_text(model, {"inline", "unused-functions", "unused-opsets"});
  EXPECT_EQ(out.find("local."), std::string::npos) << out;
  EXPECT_NE(out.find("value_float: float = 3"), std::string::npos) << out;
  expect_golden("optimizer/inline", out);
}

// The default list over a model using everything above.
TEST(GoldenOptimizer, DefaultPasses) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19, "local" : 1]>
g (float[2] x) => (float[2] y) <float[2] w = {1, 2}, float[2] w2 = {1, 2}, bool t = {1}> {
   a = local.AddW (x, w)
   b = Add (x, w2)
   c = If (t) <then_branch: graph = th () => (t_out) {
      t_out = Mul (a, b)
   }, else_branch: graph = el () => (e_out) {
      e_out = Identity (a)
   }>
   s = Shape (x)
   ones = ConstantOfShape <value: tensor = float[1] {1}> (s)
   y = Mul (c, ones)
}

<domain: "local", opset_import: ["" : 19]>
AddW (a, w) => (b) {
   b = Add (a, w)
}
)";
  const std::string out = optimized_text(model, {});
  // AddW inlined (its Add takes a's name), Add (x, w2) merged into it once
  // w2 is deduplicated into w, the If replaced by its then branch (its Mul
  // takes c's name), Shape and ConstantOfShape folded. The Mul by ones stays:
  // c's type is not declared, so nothing says the broadcast keeps its shape.
  EXPECT_NE(out.find("a = Add (x, w)"), std::string::npos) << out;
  EXPECT_NE(out.find("c = Mul (a, a)"), std::string::npos) << out;
  EXPECT_NE(out.find("y = Mul (c, ones)"), std::string::npos) << out;
  expect_golden("optimizer/default", out);
}

}  // namespace
}  // namespace onnxscript
