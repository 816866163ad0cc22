// initializer(): a weight is a graph initializer in a model, a Constant node
// in a function body or a subgraph, and the tensor itself in eager code.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnxscript/onnxscript.h"
#include "script/script_test_util.h"

namespace onnxscript {
namespace {

namespace op = opset17;
using ::testing::ElementsAre;
using testing::expect_checker_accepts;
using ::testing::HasSubstr;
using testing::op_types;

std::vector<std::string> initializer_names(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const ir::Value* v : g.initializers()) out.push_back(v->name());
  return out;
}

const Tensor kScale = Tensor::from<float>({2.0f, 3.0f});
const Tensor kShift = Tensor::from<float>({10.0f, 20.0f});

// y = x * scale + shift, with both weights stored.
const Function Affine = script("Affine", {"X"}, [](FLOAT<2> X) -> FLOAT<2> {
  const Value scale = initializer(kScale, "scale");
  const Value shift = initializer(kShift);
  return X * scale + shift;
});

TEST(Initializer, AModelStoresItsWeightsAsInitializersWithoutNodes) {
  const ir::Model model = Affine.to_model();
  const ir::Graph& g = model.graph();
  EXPECT_THAT(op_types(g), ElementsAre("Mul", "Add"));
  ASSERT_THAT(initializer_names(g), ElementsAre("scale", "init_0"));
  EXPECT_EQ(g.initializers()[0]->const_value()->data<float>()[1], 3.0f);
  ASSERT_TRUE(g.initializers()[1]->type());
  EXPECT_EQ(g.initializers()[1]->type()->to_string(), "float[2]");
  expect_checker_accepts(model);

  // Through the bytes and back: the weights are TensorProtos in the graph.
  const ir::Model loaded = serde::load_model_from_bytes(serde::serialize_model(model));
  EXPECT_THAT(initializer_names(loaded.graph()), ElementsAre("scale", "init_0"));

  const std::vector<eval::RuntimeValue> out =
      eval::Session(serde::load_model_from_bytes(serde::serialize_model(model)))
          .run({eval::RuntimeValue(Tensor::from<float>({1.0f, 1.0f}))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tensor().data<float>()[0], 12.0f);  // 1 * 2 + 10
  EXPECT_EQ(out[0].tensor().data<float>()[1], 23.0f);  // 1 * 3 + 20
}

TEST(Initializer, AFunctionBodyHoldsConstantsOfTheSameNamesInstead) {
  const ir::Function& fn = Affine.to_function();
  EXPECT_TRUE(fn.body().initializers().empty());
  EXPECT_THAT(op_types(fn.body()), ElementsAre("Constant", "Constant", "Mul", "Add"));
  const ir::Node* scale = fn.body().first_node();
  EXPECT_EQ(scale->output(0)->name(), "scale");
  EXPECT_EQ(scale->attribute("value")->as_tensor().data<float>()[1], 3.0f);
  EXPECT_EQ(fn.body().nodes().begin().operator*()->next()->output(0)->name(), "init_0");

  // Called from another model, the callee is a model-local function: its
  // weights are constants there too, and the model passes the checker.
  const Function caller =
      script("Caller", {"X"}, [](FLOAT<2> X) -> FLOAT<2> { return Affine(X) * 2.0f; });
  const ir::Model model = caller.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  EXPECT_TRUE(model.functions()[0]->body().initializers().empty());
  EXPECT_THAT(op_types(model.functions()[0]->body()),
              ElementsAre("Constant", "Constant", "Mul", "Add"));
  expect_checker_accepts(model);
  const std::vector<eval::RuntimeValue> out =
      eval::Session(serde::load_model_from_bytes(serde::serialize_model(model)))
          .run({eval::RuntimeValue(Tensor::from<float>({1.0f, 2.0f}))});
  EXPECT_EQ(out.at(0).tensor().data<float>()[1], 52.0f);  // (2 * 3 + 20) * 2
}

TEST(Initializer, EagerCodeGetsTheTensorItself) {
  const Value w = initializer(kScale, "scale");
  ASSERT_TRUE(w.is_concrete());
  EXPECT_EQ(w.tensor().data<float>()[0], 2.0f);
  const Outputs out = Affine(Tensor::from<float>({1.0f, 1.0f}));
  EXPECT_EQ(out[0].tensor().data<float>()[1], 23.0f);
}

TEST(Initializer, InsideASubgraphItIsAConstantNode) {
  const Function f = script("Branchy", {"C", "X"}, [](BOOL<> C, FLOAT<2> X) -> FLOAT<2> {
    return If(
        C, [&] { return X * initializer(kScale, "inner"); }, [&] { return X; });
  });
  const ir::Model model = f.to_model();
  EXPECT_TRUE(model.graph().initializers().empty());
  const ir::Node* if_node = model.graph().first_node();
  ASSERT_EQ(if_node->op_type(), "If");
  const ir::Graph& then_branch = *if_node->attribute("then_branch")->as_graph();
  EXPECT_TRUE(then_branch.initializers().empty());
  EXPECT_THAT(op_types(then_branch), ElementsAre("Constant", "Mul"));
  EXPECT_EQ(then_branch.first_node()->output(0)->name(), "inner");
  expect_checker_accepts(model);
}

TEST(Initializer, AnUndefinedTensorIsAnErrorAtTheUsersLine) {
  try {
    initializer(Tensor(), "w");
    ADD_FAILURE() << "expected a ScriptError";
  } catch (const ScriptError& e) {
    EXPECT_THAT(e.what(), HasSubstr("initializer 'w': the tensor is undefined"));
    EXPECT_THAT(e.what(), HasSubstr("initializer_test.cc:" + std::to_string(__LINE__ - 4)));
  }
}

}  // namespace
}  // namespace onnxscript
