// The rewriter's mechanics: rules written in the eDSL, commutative matching,
// attribute variables, values used outside a match, no overlapping rewrites
// in one sweep, several pattern outputs, opset checks, functions and
// subgraphs, the debug reports, and optimize_with_rewrites.

#include <gtest/gtest.h>

#include <onnxscript/onnxscript.h>

#include "golden.h"
#include "onnxscript/optimizer/passes.h"
#include "rewriter_test_util.h"

namespace onnxscript {
namespace {

namespace op = onnxscript::opset18;
using rewriter::Match;
using rewriter::Rule;
using testing::count_after;
using testing::expect_same_results;
using testing::rewritten_text;

// Neg(Neg(x)) -> x: the smallest rule, with the inputs of a test rule.
Rule double_negation() {
  return Rule(
      "neg-neg", {"x"}, [](Value x) { return op::Neg(op::Neg(x)); },
      [](const Match&, Value x) { return x; });
}

// Add(x, Neg(y)) -> Sub(x, y), with or without commutative matching.
Rule add_neg(bool commute) {
  return Rule(
      "add-neg", {"x", "y"}, [](Value x, Value y) { return op::Add(x, op::Neg(y)); },
      [](const Match&, Value x, Value y) { return op::Sub(x, y); }, {},
      rewriter::RuleOptions{.commute = commute});
}

std::vector<rewriter::RuleReport> debug_reports(std::string_view text, std::vector<Rule> rules) {
  ir::Model model = text::parse_model(text);
  rewriter::RewritePass pass(std::move(rules), {.debug = true});
  while (pass.run(model)) {
  }
  return pass.reports();
}

TEST(Rewriter, ReplacesAMatchAndKeepsTheOutputName) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) {
   a = Neg (x)
   b = Neg (a)
   y = Relu (b)
}
)";
  const std::string out = rewritten_text(model, {double_negation()});
  EXPECT_NE(out.find("y = Relu (x)"), std::string::npos) << out;
  EXPECT_EQ(out.find("Neg"), std::string::npos) << out;
  EXPECT_NE(out.find("# neg-neg: fired 1"), std::string::npos) << out;
}

TEST(Rewriter, CommutativeMatchingIsOnByDefaultAndCanBeTurnedOff) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x, float[3] y) => (float[3] s, float[3] t) {
   n = Neg (y)
   s = Add (n, x)
   m = Neg (y)
   t = Add (x, m)
}
)";
  EXPECT_EQ(count_after(model, "Sub", {add_neg(true)}), 2u);
  EXPECT_EQ(count_after(model, "Sub", {add_neg(false)}), 1u);  // t only
  expect_same_results(model, {Tensor::rand({3}, 1), Tensor::rand({3}, 2)}, {add_neg(true)}, {0, 0});
}

// A value the match would delete is read elsewhere: no rewrite.
TEST(Rewriter, KeepsMatchesWhoseInnerValuesAreUsedElsewhere) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y, float[3] z) {
   a = Neg (x)
   y = Neg (a)
   z = Abs (a)
}
)";
  EXPECT_EQ(count_after(model, "Neg", {double_negation()}), 2u);
  const auto reports = debug_reports(model, {double_negation()});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].matched_nodes, 2u);
  EXPECT_NE(reports[0].failure.find("'a' is also read by the Abs computing 'z'"), std::string::npos)
      << reports[0].to_string();
  // ... nor when the inner value is a graph output.
  const char* output = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y, float[3] a) {
   a = Neg (x)
   y = Neg (a)
}
)";
  EXPECT_EQ(count_after(output, "Neg", {double_negation()}), 2u);
}

// Add(a, a) with a = Neg(y) matches Add(x, Neg(y)) with x bound to a, which
// the match would delete: no rewrite (and no error).
TEST(Rewriter, KeepsMatchesThatBindAnInputInsideTheMatch) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] y) => (float[3] s) {
   a = Neg (y)
   s = Add (a, a)
}
)";
  EXPECT_EQ(count_after(model, "Sub", {add_neg(true)}), 0u);
  const auto reports = debug_reports(model, {add_neg(true)});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].failure.find("pattern input 'x' is computed inside the match"),
            std::string::npos)
      << reports[0].to_string();
}

// Four Transposes by the 3-cycle p = [1, 2, 0]: one sweep pairs them up
// (T4 with T3 and T2 with T1; the pair made first is not matched again in
// that sweep), the next sweep composes the two pairs, and p^4 = p.
TEST(Rewriter, DoesNotOverlapRewritesInOneSweep) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3,4] x) => (float[3,4,2] y) {
   a = Transpose <perm: ints = [1, 2, 0]> (x)
   b = Transpose <perm: ints = [1, 2, 0]> (a)
   c = Transpose <perm: ints = [1, 2, 0]> (b)
   y = Transpose <perm: ints = [1, 2, 0]> (c)
}
)";
  ir::Model m = text::parse_model(model);
  rewriter::RewritePass pass({rewriter::transpose_transpose_rule()});
  EXPECT_TRUE(pass.run(m));
  EXPECT_EQ(m.graph().num_nodes(), 2u);
  EXPECT_EQ(pass.fired().at("transpose-transpose"), 2u);
  EXPECT_TRUE(pass.run(m));
  ASSERT_EQ(m.graph().num_nodes(), 1u);
  EXPECT_EQ(m.graph().first_node()->attribute("perm")->as_ints(), (std::vector<int64_t>{1, 2, 0}));
  EXPECT_FALSE(pass.run(m));
  expect_same_results(model, {Tensor::rand({2, 3, 4}, 3)}, {rewriter::transpose_transpose_rule()},
                      {0, 0});
}

// Two pattern outputs: {x * y, x / y} -> {x * y, x * Reciprocal(y)}; the
// Div comes first in the graph, the Mul (the first pattern output) later.
TEST(Rewriter, MatchesPatternsWithSeveralOutputs) {
  Rule rule(
      "mul-div", {"x", "y"},
      [](Value x, Value y) {
        return std::vector<Value>{op::Mul(x, y), op::Div(x, y)};
      },
      [](const Match&, Value x, Value y) {
        return std::vector<Value>{op::Mul(x, y), op::Mul(x, op::Reciprocal(y))};
      });
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x, float[3] y) => (float[3] p, float[3] q) {
   d = Div (x, y)
   q = Relu (d)
   p = Mul (x, y)
}
)";
  const std::string out = rewritten_text(model, {rule});
  EXPECT_EQ(out.find("Div"), std::string::npos) << out;
  EXPECT_NE(out.find("Reciprocal (y)"), std::string::npos) << out;
  EXPECT_NE(out.find("# mul-div: fired 1"), std::string::npos) << out;
  // Mul's inputs come in any order; Div's do not.
  const char* swapped = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x, float[3] y) => (float[3] p, float[3] q) {
   p = Mul (y, x)
   q = Div (y, x)
}
)";
  EXPECT_EQ(count_after(swapped, "Reciprocal", {rule}), 1u);
  Tensor y = Tensor::rand({3}, 5);
  for (int64_t i = 0; i < 3; ++i) y.data<float>()[i] += 0.5f;  // away from zero
  expect_same_results(model, {Tensor::rand({3}, 4), y}, {rule}, {1e-6, 1e-6});
  // Without a Div there is no match.
  const auto reports = debug_reports(R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x, float[3] y) => (float[3] p) {
   p = Mul (x, y)
}
)",
                                     {rule});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].matched_nodes, 1u);
  EXPECT_NE(reports[0].failure.find("no Div node matches pattern output 2"), std::string::npos)
      << reports[0].to_string();
}

// An attribute the pattern sets must match; a variable used twice must see
// equal values.
TEST(Rewriter, MatchesAttributesAndAttributeVariables) {
  Rule fixed(
      "softmax-last", {"x"}, [](Value x) { return op::Neg(op::Softmax(x, {.axis = -1})); },
      [](const Match&, Value x) { return op::Neg(op::Softmax(x, {.axis = 1})); });
  Rule same(
      "same-perm", {"x"},
      [](Value x) {
        return op::Transpose(op::Transpose(x, {.perm = rewriter::IntsVar("p")}),
                             {.perm = rewriter::IntsVar("p")});
      },
      [](const Match&, Value x) { return op::Identity(x); });
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] y, float[2,3] z, float[2,3] u, float[2,3] v) {
   a = Softmax <axis: int = -1> (x)
   y = Neg (a)
   b = Softmax <axis: int = 0> (x)
   z = Neg (b)
   c = Transpose <perm: ints = [1, 0]> (x)
   u = Transpose <perm: ints = [1, 0]> (c)
   d = Transpose <perm: ints = [1, 0]> (x)
   v = Transpose (d)
}
)";
  const std::string out = rewritten_text(model, {fixed, same});
  EXPECT_NE(out.find("Softmax <axis: int = 1>"), std::string::npos) << out;
  EXPECT_NE(out.find("Softmax <axis: int = 0>"), std::string::npos) << out;
  EXPECT_NE(out.find("u = Identity (x)"), std::string::npos) << out;
  EXPECT_NE(out.find("v = Transpose (d)"), std::string::npos) << out;  // no perm: not equal
}

// Rules apply in function bodies and subgraphs, where new constants are
// Constant nodes.
TEST(Rewriter, RewritesFunctionBodiesAndSubgraphs) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18, "local" : 1]>
g (float[3] x, bool c) => (float[3] y, float[3] z) {
   y = local.F (x)
   z = If (c) <then_branch: graph = t () => (t_out) {
      t_zero = Constant <value: tensor = float {0}> ()
      t_out = Max (x, t_zero)
   }, else_branch: graph = e () => (e_out) {
      e_out = Neg (x)
   }>
}

<domain: "local", opset_import: ["" : 18]>
F (a) => (b) {
   n1 = Neg (a)
   n2 = Neg (n1)
   b = Relu (n2)
}
)";
  std::vector<Rule> rules = rewriter::default_rules();
  rules.push_back(double_negation());
  const std::string out = rewritten_text(model, rules);
  EXPECT_NE(out.find("t_out = Clip (x, "), std::string::npos) << out;
  EXPECT_NE(out.find("b = Relu (a)"), std::string::npos) << out;
  expect_same_results(model, {Tensor::rand({3}, 6), Tensor::scalar<bool>(true)}, rules, {0, 0});
}

// q has no declared type: the condition's Match::type infers it from Add.
TEST(Rewriter, InfersTheTypesConditionsAskFor) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] a, float[3] b) => (float[2,3] y) <float zero = {0}> {
   q = Add (a, b)
   y = Max (q, zero)
}
)";
  const std::string out = rewritten_text(model, {rewriter::max_clip_rule()});
  EXPECT_NE(out.find("y = Clip (q, zero)"), std::string::npos) << out;
  // The inferred type is not written to the model (q has no value_info).
  EXPECT_EQ(out.find("float[2,3] q"), std::string::npos) << out;
}

// The replacement is traced at opset 18; a model at opset 10 has Clip-6,
// whose bounds are attributes: the rule matches but is not applied.
TEST(Rewriter, ChecksTheReplacementAgainstTheModelsOpset) {
  const char* model = R"(<ir_version: 5, opset_import: ["" : 10]>
g (float[3] x) => (float[3] y) <float lo = {0}> {
   y = Max (x, lo)
}
)";
  EXPECT_EQ(count_after(model, "Clip", {rewriter::max_clip_rule()}), 0u);
  const auto reports = debug_reports(model, {rewriter::max_clip_rule()});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].failure.find("matched, but the replacement's Clip is version 13"),
            std::string::npos)
      << reports[0].to_string();
  // At opset 12, Clip-12 takes the same inputs: applied.
  const char* newer = R"(<ir_version: 7, opset_import: ["" : 12]>
g (float[3] x) => (float[3] y) <float lo = {0}> {
   y = Max (x, lo)
}
)";
  EXPECT_EQ(count_after(newer, "Clip", {rewriter::max_clip_rule()}), 1u);
}

TEST(Rewriter, DebugReportsTheBestPartialMatch) {
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] y, float[3,2] z) {
   a = Relu (x)
   y = Transpose <perm: ints = [0, 1]> (a)
   b = Transpose (x)
   z = Transpose <perm: ints = [1, 0]> (b)
}
)";
  const auto reports =
      debug_reports(model, {rewriter::transpose_transpose_rule(), rewriter::min_clip_rule()});
  ASSERT_EQ(reports.size(), 2u);
  // z's pair matches both nodes and the condition refuses it (b has no
  // perm); y's pair fails at its second node. The best is z's.
  EXPECT_EQ(reports[0].rule, "transpose-transpose");
  EXPECT_EQ(reports[0].graph, "main graph");
  EXPECT_EQ(reports[0].matched_nodes, 2u);
  EXPECT_EQ(reports[0].pattern_nodes, 2u);
  EXPECT_EQ(reports[0].failure, "the condition refused the match: a Transpose has no perm");
  EXPECT_EQ(reports[1].to_string(),
            "min-clip on main graph: 0/1 nodes matched; no Min node in the graph");
  // Without the second pair, the best is the first: one node, then a Relu.
  const auto first = debug_reports(R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] y) {
   a = Relu (x)
   y = Transpose <perm: ints = [0, 1]> (a)
}
)",
                                   {rewriter::transpose_transpose_rule()});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].matched_nodes, 1u);
  EXPECT_EQ(first[0].failure, "pattern Transpose met the Relu computing 'a'");
}

TEST(Rewriter, RulesReportMistakesWhenBuilt) {
  EXPECT_THROW(Rule(
                   "bad", {"x", "y"}, [](Value x) { return op::Neg(x); },
                   [](const Match&, Value x) { return x; }),
               Error);
  EXPECT_THROW(
      Rule(
          "input", {"x"}, [](Value x) { return x; }, [](const Match&, Value x) { return x; }),
      Error);
  const Rule r = double_negation();
  EXPECT_EQ(r.name(), "neg-neg");
  EXPECT_EQ(r.pattern().num_nodes(), 2u);
}

// A replacement that fails (here: asks for an unknown name) leaves the
// graph as it was; the debug report says why.
TEST(Rewriter, AFailingReplacementLeavesTheGraphAlone) {
  Rule bad(
      "bad", {"x"}, [](Value x) { return op::Neg(x); },
      [](const Match& m, Value) { return Value::traced(m.value("nope")); });
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) {
   y = Neg (x)
}
)";
  const auto reports = debug_reports(model, {bad});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].failure.find("the replacement failed: rule 'bad': no pattern input 'nope'"),
            std::string::npos)
      << reports[0].to_string();
  EXPECT_EQ(count_after(model, "Neg", {bad}), 1u);
}

TEST(Rewriter, OptimizeWithRewritesPlacesTheRewriteAfterIdentity) {
  const std::vector<std::string> names = rewriter::pass_names_with_rewrite();
  const auto at = [&](std::string_view n) {
    return std::find(names.begin(), names.end(), n) - names.begin();
  };
  EXPECT_EQ(at("rewrite"), at("identity") + 1);
  EXPECT_LT(at("rewrite"), at("cse"));
  EXPECT_EQ(names.size(), optimizer::pass_names().size() + 1);
  // The optimizer alone does not know the pass.
  EXPECT_THROW(optimizer::make_pass("rewrite"), Error);
  // Folding first gives the rules constants: Max(x, 0 + 0) becomes a Clip,
  // and the second run changes nothing.
  const char* model = R"(<ir_version: 9, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) <float z = {0}> {
   s = Add (z, z)
   y = Max (x, s)
}
)";
  ir::Model m = text::parse_model(model);
  const optimizer::PassManagerResult r = rewriter::optimize_with_rewrites(m);
  EXPECT_TRUE(r.fixed_point);
  ASSERT_EQ(m.graph().num_nodes(), 1u);
  EXPECT_EQ(m.graph().first_node()->op_type(), "Clip");
  const optimizer::PassManagerResult again = rewriter::optimize_with_rewrites(m);
  EXPECT_FALSE(again.changed);
}

}  // namespace
}  // namespace onnxscript
