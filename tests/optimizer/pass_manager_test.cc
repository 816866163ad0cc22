// The PassManager (rounds, fixed point, cap, counts), the pass registry, and
// optimized models computing what the originals compute.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "golden.h"
#include "optimizer_test_util.h"

namespace onnxscript {
namespace {

using ::testing::HasSubstr;

// Changes the model `changes` times (renaming its graph), then reports no change.
class CountingPass final : public optimizer::Pass {
 public:
  explicit CountingPass(int changes) : left_(changes) {}
  std::string_view name() const override { return "counting"; }

 protected:
  bool run_once(ir::Model& model) override {
    if (left_ == 0) return false;
    --left_;
    model.graph().set_name(model.graph().name() + "x");
    ++mutable_counts().nodes_rewritten;
    return true;
  }

 private:
  int left_;
};

TEST(PassManager, RunsToAFixedPointAndCounts) {
  std::vector<std::unique_ptr<optimizer::Pass>> passes;
  passes.push_back(std::make_unique<CountingPass>(2));
  passes.push_back(optimizer::make_dead_code_elimination());
  optimizer::PassManager manager(std::move(passes), 8);
  ir::Model model;
  const optimizer::PassManagerResult r = manager.run(model);
  // Two rounds change the name, the third changes nothing.
  EXPECT_EQ(r.iterations, 3);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.fixed_point);
  ASSERT_EQ(r.passes.size(), 2u);
  EXPECT_EQ(r.passes[0].name, "counting");
  EXPECT_EQ(r.passes[0].runs, 3u);
  EXPECT_EQ(r.passes[0].changed_runs, 2u);
  EXPECT_EQ(r.passes[0].counts.nodes_rewritten, 2u);
  EXPECT_EQ(r.passes[1].name, "dce");
  EXPECT_EQ(r.passes[1].changed_runs, 0u);
  EXPECT_EQ(model.graph().name(), "xx");
}

TEST(PassManager, StopsAtTheCap) {
  std::vector<std::unique_ptr<optimizer::Pass>> passes;
  passes.push_back(std::make_unique<CountingPass>(100));
  optimizer::PassManager manager(std::move(passes), 3);
  ir::Model model;
  const optimizer::PassManagerResult r = manager.run(model);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_FALSE(r.fixed_point);
  EXPECT_EQ(r.passes[0].counts.nodes_rewritten, 3u);
}

TEST(PassRegistry, EveryNameMakesItsPassAndUnknownNamesAreErrors) {
  for (const std::string& name : optimizer::pass_names())
    EXPECT_EQ(optimizer::make_pass(name)->name(), name);
  try {
    optimizer::make_pass("fold-everything");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown pass 'fold-everything'"));
    EXPECT_THAT(e.what(), HasSubstr("inline, constant-if, fold"));
  }
}

// value_info entries of values the passes removed go with them: d is
// folded (its initializer keeps the name, and needs no entry), e = Identity (x)
// is gone; the entry of the surviving value f stays.
TEST(PassManager, DropsValueInfoOfRemovedValues) {
  const std::string out = testing::optimized_text(R"(<ir_version: 9, opset_import: ["" : 19]>
g (float[2] x) => (float[2] y)
   <float[2] c = {1, 2}, float[2] d, float[2] e, float[2] f>
{
   d = Add (c, c)
   e = Identity (x)
   f = Mul (e, d)
   y = Relu (f)
}
)",
                                                  {});
  EXPECT_THAT(out, HasSubstr("<float[2] d = {2, 4},\n    float[2] f>"));
  EXPECT_THAT(out, HasSubstr("f = Mul (x, d)"));
}

// A model the default passes change a lot, run on concrete inputs before and
// after: bit for bit the same.
TEST(OptimizedModels, ComputeWhatTheOriginalsCompute) {
  testing::expect_same_results(
      R"(<ir_version: 9, opset_import: ["" : 19, "local" : 1]>
g (float[2,3] x, bool c) => (float[2,3] y, float[2,3] z, int64[2] s)
   <float[3] w = {1, 2, 3}, float[3] w2 = {1, 2, 3}, float one = {1}, bool t = {1}>
{
   a = local.AddW <k: float = 0.5> (x, w)
   b = Add (x, w2)
   i = If (t) <then_branch: graph = th () => (t_out) {
      t_out = Mul (a, b)
   }, else_branch: graph = el () => (a) {
   }>
   j = If (c) <then_branch: graph = th2 () => (t2) {
      t2 = Identity (i)
   }, else_branch: graph = el2 () => (e2) {
      e2 = Neg (i)
   }>
   s = Shape (x)
   ones = ConstantOfShape <value: tensor = float[1] {1}> (s)
   m = Mul (j, ones)
   y = Mul (m, one)
   z = Dropout (y)
}

<domain: "local", opset_import: ["" : 19]>
AddW <k> (a, w) => (b) {
   kk = Constant <value_float: float = @k> ()
   scaled = Mul (w, kk)
   b = Add (a, scaled)
}
)",
      {ir::Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3}), ir::Tensor::scalar<bool>(false)});
}

// Folding inside a function body and inside an If branch: there the results
// are Constant nodes (function bodies and subgraphs hold no initializers
// here). In the IR 3 model the folded value is a Constant node too: below IR
// 4 an initializer would have to be a graph input.
TEST(GoldenOptimizer, FoldingInFunctionsSubgraphsAndIr3) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 19, "local" : 1]>
g (float[2] x, bool c) => (float[2] y, float[2] z) {
   y = local.Shift (x)
   z = If (c) <then_branch: graph = th () => (t_out) {
      two = Constant <value: tensor = float {2}> ()
      four = Mul (two, two)
      t_out = Add (x, four)
   }, else_branch: graph = el () => (x) {
   }>
}

<domain: "local", opset_import: ["" : 19]>
Shift (a) => (b) {
   one = Constant <value_float: float = 1> ()
   three = Add (one, one)
   b = Add (a, three)
}
)";
  const std::string out = testing::optimized_text(model, {"fold", "dce"});
  EXPECT_THAT(out, HasSubstr("four = Constant <value: tensor = float {4}>"));
  EXPECT_THAT(out, HasSubstr("three = Constant <value: tensor = float {2}>"));
  const char* ir3 = R"(<ir_version: 3, opset_import: ["" : 9]>
g (float[2] x) => (float[2] y) {
   two = Constant <value: tensor = float {2}> ()
   four = Mul (two, two)
   y = Add (x, four)
}
)";
  const std::string out3 = testing::optimized_text(ir3, {"fold", "dce"});
  EXPECT_THAT(out3, HasSubstr("four = Constant <value: tensor = float {4}>"));
  testing::expect_golden("optimizer/fold_nested", out + "\n" + out3);
}

}  // namespace
}  // namespace onnxscript
