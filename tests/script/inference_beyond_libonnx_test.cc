// Inference while building at opsets beyond libonnx 1.12 (18 and later): a
// script traced with opset18 or later gets typed values, through the rules
// of src/infer/rules_beyond_libonnx.cc. Expected shapes are worked out by
// hand from the operators' specifications.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "error_message.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The type of a traced value as the eDSL sees it while building.
std::optional<ir::Type> type_of(const Value& v) {
  return v.ir_value() ? v.ir_value()->type() : std::nullopt;
}

// "float[4,5]" and the like; "untyped" when inference gave nothing.
std::string str(const std::optional<ir::Type>& t) { return t ? t->to_string() : "untyped"; }

TEST(InferenceBeyondLibonnx, ReduceMean18TakesItsAxesAsAnInput) {
  std::optional<ir::Type> seen;
  (void)script("f", {"X"}, [&](FLOAT<4, 3, 5> X) {
    Value y = opset18::ReduceMean(X, Tensor::from<int64_t>({1}), {.keepdims = 0});
    seen = type_of(y);
    return y;
  }).to_model();
  EXPECT_EQ(str(seen), "float[4,5]");
  // ReduceSum took its axes as an input already at 13, the version in force
  // at 18: libonnx's rule; keepdims 1 keeps axis 2 as 1.
  (void)script("g", {"X"}, [&](FLOAT<4, 3, 5> X) {
    Value y = opset18::ReduceSum(X, Tensor::from<int64_t>({-1}));
    seen = type_of(y);
    return y;
  }).to_model();
  EXPECT_EQ(str(seen), "float[4,3,1]");
}

TEST(InferenceBeyondLibonnx, Split18WithNumOutputsMakesTheLastChunkSmaller) {
  // 7 rows in 3 parts: ceil(7 / 3) = 3, 3, and the remaining 1.
  std::vector<std::string> seen;
  (void)script("f", {"X"}, [&](FLOAT<7, 2> X) {
    std::vector<Value> parts = opset18::Split.outputs(3)(X, {.axis = 0, .num_outputs = 3});
    for (const Value& p : parts) seen.push_back(str(type_of(p)));
    return parts[2];
  }).to_model();
  EXPECT_THAT(seen, ElementsAre("float[3,2]", "float[3,2]", "float[1,2]"));
}

TEST(InferenceBeyondLibonnx, Gelu20KeepsTheInputType) {
  std::optional<ir::Type> seen;
  (void)script("f", {"X"}, [&](FLOAT<"N", 3> X) {
    Value y = opset20::Gelu(X);
    seen = type_of(y);
    return y;
  }).to_model();
  EXPECT_EQ(str(seen), "float[N,3]");
}

TEST(InferenceBeyondLibonnx, Pad18PadsOnlyTheGivenAxes) {
  // Axis 1 of [2, 3] gets 1 before and 2 after: [2, 6].
  std::optional<ir::Type> seen;
  (void)script("f", {"X"}, [&](FLOAT<2, 3> X) {
    Value y = opset18::Pad(X, Tensor::from<int64_t>({1, 2}), Value(), Tensor::from<int64_t>({1}));
    seen = type_of(y);
    return y;
  }).to_model();
  EXPECT_EQ(str(seen), "float[2,6]");
}

TEST(InferenceBeyondLibonnx, OperatorsUnchangedSince17UseLibonnxsRule) {
  // MatMul last changed at 13: at opset 18 libonnx's MatMul-13 types it.
  std::optional<ir::Type> seen;
  (void)script("f", {"A", "B"}, [&](FLOAT<2, 3> A, FLOAT<3, 4> B) {
    Value y = opset18::MatMul(A, B);
    seen = type_of(y);
    return y;
  }).to_model();
  EXPECT_EQ(str(seen), "float[2,4]");
}

TEST(InferenceBeyondLibonnx, ARuleRejectsAWrongNodeWhileBuilding) {
  const std::string m = testing::message_of<ScriptError>([] {
    (void)script("f", {"A", "B"}, [](INT32<2, 3> A, INT32<4> B) {
      return opset18::BitwiseAnd(A, B);
    }).to_model();
  });
  EXPECT_THAT(m, HasSubstr("BitwiseAnd"));
  EXPECT_THAT(m, HasSubstr("do not broadcast"));
}

TEST(InferenceBeyondLibonnx, ModelOutputTypesAreInferredAtOpset18AndLater) {
  // A model whose output carries no type: Mish-18 then Gelu-20 keep
  // float[2,3]; CastLike-21 takes its second input's element type.
  ir::Model model;
  model.opset_imports.set("", 21);
  ir::Graph& g = model.graph();
  ir::Value* x = g.add_input("X", ir::Type::tensor(DataType::kFloat, ir::Shape{2, 3}));
  ir::Value* like = g.add_input("L", ir::Type::tensor(DataType::kDouble, ir::Shape{}));
  ir::Node* mish = g.append_node("Mish", {x}, 1);
  mish->output(0)->set_name("m");
  ir::Node* gelu = g.append_node("Gelu", {mish->output(0)}, 1);
  gelu->output(0)->set_name("g");
  ir::Node* cast = g.append_node("CastLike", {gelu->output(0), like}, 1);
  cast->output(0)->set_name("Y");
  g.outputs().push_back(cast->output(0));
  infer::infer_model_output_types(model);
  EXPECT_EQ(str(g.outputs()[0]->type()), "double[2,3]");
  // The intermediate values are left as they were.
  EXPECT_FALSE(mish->output(0)->type());
}

TEST(InferenceBeyondLibonnx, ModelOutputTypesGoThroughModelLocalFunctions) {
  // main: Y = local.Twice(X) at opset 18, with Twice(A) = Mish(Add(A, A)):
  // float[4] throughout.
  ir::Model model;
  model.opset_imports.set("", 18);
  model.opset_imports.set("local", 1);
  auto fn = std::make_unique<ir::Function>("local", "Twice");
  fn->opset_imports.set("", 18);
  ir::Graph& body = fn->body();
  ir::Value* a = body.add_input("A");
  ir::Node* add = body.append_node("Add", {a, a}, 1);
  add->output(0)->set_name("s");
  ir::Node* mish = body.append_node("Mish", {add->output(0)}, 1);
  mish->output(0)->set_name("B");
  body.outputs().push_back(mish->output(0));
  model.functions().push_back(std::move(fn));
  ir::Graph& g = model.graph();
  ir::Value* x = g.add_input("X", ir::Type::tensor(DataType::kFloat, ir::Shape{4}));
  ir::Node* call = g.append_node("Twice", {x}, 1, "local");
  call->output(0)->set_name("Y");
  g.outputs().push_back(call->output(0));
  infer::infer_model_output_types(model);
  EXPECT_EQ(str(g.outputs()[0]->type()), "float[4]");
  // The function's body is the model's as it was: untyped.
  EXPECT_FALSE(model.functions()[0]->body().outputs()[0]->type());
}

TEST(InferenceBeyondLibonnx, FunctionBodiedOperatorsAreTypedWhileBuilding) {
  // GreaterOrEqual has no rule in libonnx 1.12, only a function body; it
  // is typed through the body, at 17 as at 18.
  for (int64_t opset : {17, 18}) {
    std::string type;
    const Function f = script("f", {"a", "b"}, [&](FLOAT<2, 3> a, FLOAT<2, 3> b) {
      Value c = opset == 17 ? opset17::GreaterOrEqual(a, b) : opset18::GreaterOrEqual(a, b);
      type = c.describe();
      return c;
    });
    f.to_model();
    EXPECT_THAT(type, HasSubstr("bool[2,3]")) << opset;
  }
}

TEST(InferenceBeyondLibonnx, AnUntypedModelInputDoesNotStopOutputInference) {
  // libonnx 1.12's whole-model inference dereferences a null type on an
  // untyped graph input (the process crashed here before); the node-by-node
  // path types what it can.
  const Function f =
      script("f", {"data"}, [](Value data) { return opset17::Expand(true, opset17::Shape(data)); });
  const ir::Model m = f.to_model();
  ASSERT_TRUE(m.graph().outputs()[0]->type());
  EXPECT_EQ(m.graph().outputs()[0]->type()->elem_type, DataType::kBool);
}

TEST(InferenceBeyondLibonnx, CallsTypeTheirBodyWithTheCallsAttributes) {
  // Split's axis comes from the function attribute `axis`: typing the call
  // needs its value from the call site.
  const Function halves = script("halves", {"x", {"axis", 0}}, [](Value x, Attr<int64_t> axis) {
    return opset18::Split(x, {.axis = axis, .num_outputs = 2})[1];
  });
  const Function model = script("model", {"x"}, [&](FLOAT<4, 6> x) { return halves(x, 1); });
  const ir::Model m = model.to_model();
  EXPECT_EQ(str(m.graph().outputs()[0]->type()), "float[4,3]");
}

TEST(InferenceBeyondLibonnx, ScanBodiesUntypedWhileBuildingAreTypedFromTheScanInputs) {
  const Function f = script("f", {"x"}, [](FLOAT<5, 3> x) {
    const Graph sum = graph("sum", {"acc", "row"}, [](Value acc, Value row) {
      Value next = acc + row;
      return std::tuple{next, opset18::Identity(next)};
    });
    auto [total, running] = unpack<2>(opset18::Scan(
        {opset18::ReduceSum(x, Value(Tensor::from<int64_t>({0})), {.keepdims = 0}), x},
        {.body = sum, .num_scan_inputs = 1}));
    return running;
  });
  const ir::Model m = f.to_model();
  EXPECT_EQ(str(m.graph().outputs()[0]->type()), "float[5,3]");
}

}  // namespace
}  // namespace onnxscript
