// The generated operator API as users meet it: types checked at compile time,
// attribute structs, output counts, opset selection, and eager calls.

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/opsets/all.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace {

using namespace onnxscript;
namespace op = onnxscript::opset17;

// ---- compile-time checks: these fail the build of this file, not a test.

// Statically typed inputs are checked against the schema's constraints.
static_assert(std::is_invocable_v<decltype(op::Erf), FLOAT<3>>);
static_assert(!std::is_invocable_v<decltype(op::Erf), STRING<3>>);
static_assert(!std::is_invocable_v<decltype(op::Erf), BOOL<3>>);
static_assert(std::is_invocable_v<decltype(op::Erf), Value>);  // dynamic: checked when built
static_assert(std::is_invocable_v<decltype(op::Add), FLOAT<"N">, double>);
static_assert(!std::is_invocable_v<decltype(op::Add), FLOAT<"N">, const char*>);
// Reshape's shape is tensor(int64), a fixed type.
static_assert(std::is_invocable_v<decltype(op::Reshape), FLOAT<2, 3>, INT64<1>>);
static_assert(!std::is_invocable_v<decltype(op::Reshape), FLOAT<2, 3>, INT32<1>>);
// Variadic inputs check each element of a braced list.
static_assert(
    std::is_invocable_v<decltype(op::Concat), std::vector<Value>, ops::Concat_13::Attributes>);

// Opset N holds each operator at its latest version <= N.
static_assert(std::is_same_v<std::remove_cvref_t<decltype(op::Add)>, ops::Add_14>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset13::Add)>, ops::Add_13>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset11::Split)>, ops::Split_11>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(ml::opset3::TreeEnsembleClassifier)>,
                             ml::ops::TreeEnsembleClassifier_3>);
static_assert(op::Add.opset_version() == 17 && opset13::Add.opset_version() == 13);
// Opsets 18 to 28 come from the project's operator table, with the same rules.
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset18::ReduceMax)>, ops::ReduceMax_18>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset18::Abs)>, ops::Abs_13>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset18::Split)>, ops::Split_18>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset28::Celu)>, ops::Celu_28>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(opset27::Celu)>, ops::Celu_12>);
static_assert(std::is_same_v<std::remove_cvref_t<decltype(ml::opset5::TreeEnsemble)>,
                             ml::ops::TreeEnsemble_5>);
static_assert(opset18::ReduceMax.opset_version() == 18);
// ReduceMax-18 takes axes as an input: the data alone, or with an int64 axes tensor.
static_assert(std::is_invocable_v<decltype(opset18::ReduceMax), FLOAT<2, 3>, INT64<1>>);
static_assert(!std::is_invocable_v<decltype(opset18::ReduceMax), FLOAT<2, 3>, INT32<1>>);

// Required attributes make the Attributes aggregate non-default-constructible.
static_assert(!std::is_default_constructible_v<ops::Cast_13::Attributes>);
static_assert(std::is_default_constructible_v<ops::Gather_13::Attributes>);
static_assert(!std::is_constructible_v<detail::AttrField<int64_t>, const char*>);
static_assert(!std::is_constructible_v<detail::AttrField<int64_t>, double>);
static_assert(std::is_constructible_v<detail::AttrField<float>, int>);
static_assert(std::is_constructible_v<detail::AttrField<int64_t>, DataType>);

// Outputs: one Value, a tuple for fixed multi-output operators, the required
// outputs by default and all of them from all_outputs(), a vector for variadic.
static_assert(std::is_same_v<decltype(op::Relu(Value())), Value>);
static_assert(std::is_same_v<decltype(op::TopK(Value(), Value())), std::tuple<Value, Value>>);
static_assert(std::is_same_v<decltype(op::Dropout(Value())), Value>);
static_assert(std::is_same_v<decltype(op::Dropout.all_outputs(Value())), std::tuple<Value, Value>>);
static_assert(std::is_same_v<decltype(op::Split(Value())), std::vector<Value>>);

// ---- traced calls

class Traced : public ::testing::Test {
 protected:
  Value input(const std::string& name) { return Value::traced(graph_.add_input(name)); }
  const ir::Node& last() { return *graph_.last_node(); }

  ir::Graph graph_{"g"};
  ir::OpsetImports imports_;
  TraceScope scope_{graph_, imports_};
};

TEST_F(Traced, RecordsTheNodeAndTheOpsetOfTheNamespace) {
  Value y = opset13::Add(input("a"), input("b"));
  EXPECT_EQ(last().op_type(), "Add");
  EXPECT_EQ(last().inputs().size(), 2u);
  EXPECT_EQ(y.ir_value(), last().output(0));
  EXPECT_EQ(imports_.find(""), 13);
}

TEST_F(Traced, WritesOnlyTheAttributesTheCallerSet) {
  Value x = input("x"), i = input("i");
  (void)op::Gather(x, i);
  EXPECT_TRUE(last().attributes().empty());
  (void)op::Gather(x, i, {.axis = 0});  // set explicitly, even to the default
  ASSERT_NE(last().attribute("axis"), nullptr);
  EXPECT_EQ(last().attribute("axis")->as_int(), 0);
}

TEST_F(Traced, AttributeTypesFollowTheSchema) {
  Value x = input("x");
  (void)op::Cast(x, {.to = DataType::kInt64});
  EXPECT_EQ(last().attribute("to")->as_int(), 7);
  (void)op::Transpose(x, {.perm = {1, 0}});
  EXPECT_EQ(last().attribute("perm")->as_ints(), (std::vector<int64_t>{1, 0}));
  (void)op::LeakyRelu(x, {.alpha = 0.5});
  EXPECT_FLOAT_EQ(last().attribute("alpha")->as_float(), 0.5f);
  (void)op::Pad(x, input("pads"), {.mode = "reflect"});
  EXPECT_EQ(last().attribute("mode")->as_string(), "reflect");
  Value c = op::Constant({.value_ints = {-1}});
  EXPECT_EQ(last().op_type(), "Constant");
  EXPECT_EQ(last().attribute("value_ints")->as_ints(), (std::vector<int64_t>{-1}));
  EXPECT_TRUE(c.is_traced());
}

TEST_F(Traced, AttributeReferencesBecomeRefAttrName) {
  ops::Gather_13::Attributes attrs;
  attrs.axis = detail::AttrField<int64_t>::reference("dim");
  (void)op::Gather(input("x"), input("i"), attrs);
  const ir::Attribute* axis = last().attribute("axis");
  ASSERT_NE(axis, nullptr);
  EXPECT_EQ(axis->ref_attr_name, "dim");
  EXPECT_EQ(axis->type, ir::AttributeType::kInt);
}

TEST_F(Traced, OptionalInputsCanBeOmittedOrSkipped) {
  Value x = input("x");
  (void)op::Clip(x);
  EXPECT_EQ(last().inputs().size(), 1u);
  (void)op::Clip(x, Value(), input("max"));  // skip the middle one
  ASSERT_EQ(last().inputs().size(), 3u);
  EXPECT_EQ(last().input(1), nullptr);
  (void)op::Clip(x, input("min"), Value());  // a trailing Value() is left out
  EXPECT_EQ(last().inputs().size(), 2u);
}

TEST_F(Traced, VariadicInputsTakeBracedListsAndVectors) {
  Value a = input("a"), b = input("b");
  (void)op::Concat({a, b, a}, {.axis = 0});
  EXPECT_EQ(last().inputs().size(), 3u);
  std::vector<Value> values = {a, b};
  (void)op::Sum(values);
  EXPECT_EQ(last().inputs().size(), 2u);
}

TEST_F(Traced, FixedMultiOutputOperatorsUnpack) {
  auto [values, indices] = op::TopK(input("x"), input("k"));
  EXPECT_EQ(values.ir_value(), last().output(0));
  EXPECT_EQ(indices.ir_value(), last().output(1));
  Value y = op::Dropout(input("x"));
  EXPECT_EQ(last().outputs().size(), 1u);
  auto [output, mask] = op::Dropout.all_outputs(input("x"));
  EXPECT_EQ(last().outputs().size(), 2u);
  EXPECT_NE(y.ir_value(), output.ir_value());
  EXPECT_EQ(mask.ir_value(), last().output(1));
}

TEST_F(Traced, SplitCountsOutputsFromTheSplitAttribute) {
  EXPECT_EQ(opset11::Split(input("x"), {.split = {1, 2, 3}}).size(), 3u);
  EXPECT_EQ(last().outputs().size(), 3u);
}

TEST_F(Traced, SplitCountsOutputsFromAConstantSplitInput) {
  // A concrete tensor becomes a Constant node; its length is known.
  EXPECT_EQ(op::Split(input("x"), Tensor::from<int64_t>({2, 2})).size(), 2u);
  // So is the output of a traced Constant.
  Value split = op::Constant({.value_ints = {1, 1, 1, 1}});
  EXPECT_EQ(op::Split(input("x"), split).size(), 4u);
}

TEST_F(Traced, SplitWithoutAKnownCountAsksForOne) {
  try {
    (void)op::Split(input("x"), input("split"));
    FAIL() << "expected ScriptError";
  } catch (const ScriptError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("Split"), std::string::npos) << message;
    EXPECT_NE(message.find(".outputs("), std::string::npos) << message;
    EXPECT_NE(message.find("api_test.cc"), std::string::npos) << message;  // the caller's line
  }
  EXPECT_EQ(op::Split.outputs(3)(input("x")).size(), 3u);
  EXPECT_EQ(last().outputs().size(), 3u);
  auto [a, b] = unpack<2>(op::Split.outputs(2)(input("x")));
  EXPECT_EQ(b.ir_value(), last().output(1));
  EXPECT_THROW(unpack<3>(op::Split.outputs(2)(input("x"))), Error);
  (void)a;
}

Graph graph_with_outputs(int n) {
  auto g = std::make_shared<ir::Graph>("body");
  for (int i = 0; i < n; ++i) g->outputs().push_back(g->add_input("v" + std::to_string(i)));
  return g;
}

TEST_F(Traced, ControlFlowCountsOutputsFromTheirBodies) {
  EXPECT_EQ(op::If(input("c"),
                   {.else_branch = graph_with_outputs(2), .then_branch = graph_with_outputs(2)})
                .size(),
            2u);
  // Loop's body also returns the condition.
  EXPECT_EQ(op::Loop(input("M"), Value(), {input("v")}, {.body = graph_with_outputs(3)}).size(),
            2u);
  EXPECT_EQ(
      op::Scan({input("init"), input("X")}, {.body = graph_with_outputs(2), .num_scan_inputs = 1})
          .size(),
      2u);
}

TEST_F(Traced, DynamicTypesAreCheckedWhenTheNodeIsBuilt) {
  Value s = Value::traced(graph_.add_input("s", ir::Type::tensor(DataType::kString)));
  try {
    (void)op::Erf(s);
    FAIL() << "expected ScriptError";
  } catch (const ScriptError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor(string)"), std::string::npos) << e.what();
  }
}

TEST(Signatures, FindSignaturePicksTheLatestVersionNoLaterThanTheOpset) {
  ASSERT_NE(detail::find_signature("", "Add", 17), nullptr);
  EXPECT_EQ(detail::find_signature("", "Add", 17)->since_version, 14);
  EXPECT_EQ(detail::find_signature("", "Add", 13)->since_version, 13);
  EXPECT_EQ(detail::find_signature("", "Add", 6)->since_version, 6);
  EXPECT_EQ(detail::find_signature("ai.onnx.ml", "TreeEnsembleClassifier", 3)->since_version, 3);
  EXPECT_EQ(detail::find_signature("", "LayerNormalization", 16), nullptr);  // new in 17
  EXPECT_EQ(detail::find_signature("", "NoSuchOp", 17), nullptr);
  EXPECT_EQ(detail::find_signature("", "Add", 17)->inputs.size(), 2u);
}

// ---- eager calls (kernels from src/eval/kernels)

TEST(Eager, AddRunsTheKernel) {
  Value y = op::Add(Tensor::from<float>({1, 2}), Tensor::from<float>({3, 4}));
  ASSERT_TRUE(y.is_concrete());
  const Tensor& t = y.tensor();
  ASSERT_EQ(t.numel(), 2);
  EXPECT_FLOAT_EQ(t.data<float>()[0], 4);
  EXPECT_FLOAT_EQ(t.data<float>()[1], 6);
}

TEST(Eager, LiteralsTakeTheTypeOfTheirPeer) {
  Value y = op::Mul(Tensor::from<float>({1, 2}), 0.5);
  EXPECT_EQ(y.dtype(), DataType::kFloat);
  EXPECT_FLOAT_EQ(y.tensor().data<float>()[1], 1.0f);
}

TEST(Eager, SplitDeducesItsOutputsFromAConcreteSplit) {
  std::vector<Value> parts =
      op::Split(Tensor::from<float>({1, 2, 3}), Tensor::from<int64_t>({1, 2}));
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].tensor().numel(), 2);
}

}  // namespace
