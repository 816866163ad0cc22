// A script function's results become its body's outputs by the routine
// that makes the outputs of If branches, loop bodies and graph(): an input,
// a repeated value or a literal gets a node of its own, and that node, like
// every node a trace appends, records the user's line and the opset it needs.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "onnxscript/onnxscript.h"
#include "script/script_test_util.h"

namespace onnxscript {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::op_types;

std::string this_file_at(int line) { return "function_outputs_test.cc:" + std::to_string(line); }

TEST(FunctionOutputs, PassThroughNodesCarryTheScriptLine) {
  ScopedTraceOptions options({.record_source_locations = true});
  const int line = __LINE__ + 1;
  const Function f = script("f", {"X"}, [](FLOAT<"N"> X) {
    Value y = opset17::Relu(X);
    return std::tuple{X, y, y};  // an input, then one value twice
  });
  const ir::Graph& body = f.to_function().body();
  EXPECT_THAT(op_types(body), ElementsAre("Relu", "Identity", "Identity"));
  for (const ir::Node* n : body.nodes()) {
    if (n->op_type() != "Identity") continue;
    EXPECT_EQ(n->origin.line(), static_cast<uint_least32_t>(line));
    ASSERT_EQ(n->metadata_props().size(), 1u);
    EXPECT_EQ(n->metadata_props()[0].first, "onnxscript.source");
    EXPECT_THAT(n->metadata_props()[0].second, HasSubstr(this_file_at(line)));
  }
  ASSERT_EQ(body.outputs().size(), 3u);
  EXPECT_NE(body.outputs()[1], body.outputs()[2]);
  EXPECT_EQ(body.outputs()[0]->type(), body.inputs()[0]->type());
}

// The Identity that returns an input is an operator of the default domain:
// the function must import it even when nothing else does.
TEST(FunctionOutputs, AFunctionThatOnlyReturnsItsInputImportsTheDefaultOpset) {
  const Function f = script("same", {"X"}, [](FLOAT<"N"> X) { return X; });
  const ir::Function& fn = f.to_function();
  EXPECT_THAT(op_types(fn.body()), ElementsAre("Identity"));
  EXPECT_TRUE(fn.opset_imports.find("").has_value());
  testing::expect_checker_accepts(f.to_model());
}

// As in an If branch: a literal becomes a Constant of the element type the
// lambda declares, or else of its default type; a tensor a typed Constant.
TEST(FunctionOutputs, LiteralsAndTensorsBecomeTypedConstants) {
  const Function declared =
      script("declared", {"X"}, [](FLOAT<"N"> /*X*/) -> FLOAT<> { return Value(2); });
  const ir::Value* out = declared.to_function().body().outputs().at(0);
  ASSERT_EQ(out->producer()->op_type(), "Constant");
  ASSERT_TRUE(out->type().has_value());
  EXPECT_EQ(out->type()->elem_type, DataType::kFloat);
  EXPECT_EQ(out->producer()->attribute("value")->as_tensor().dtype(), DataType::kFloat);

  const Function plain = script("plain", {"X"}, [](Value X) {
    return std::tuple{opset17::Relu(X), Value(3), Value(Tensor::from<int32_t>({1, 2}))};
  });
  const ir::Graph& body = plain.to_function().body();
  ASSERT_EQ(body.outputs().size(), 3u);
  EXPECT_EQ(body.outputs()[1]->type()->elem_type, DataType::kInt64);
  EXPECT_EQ(body.outputs()[2]->type()->elem_type, DataType::kInt32);
  EXPECT_THAT(op_types(body), ElementsAre("Relu", "Constant", "Constant"));
}

TEST(FunctionOutputs, AnOmittedResultNamesTheScriptAndItsLine) {
  const int line = __LINE__ + 1;
  const Function f = script("f", {"X"}, [](Value X) { return std::tuple{X, Value()}; });
  try {
    f.to_function();
    ADD_FAILURE() << "no ScriptError";
  } catch (const ScriptError& e) {
    EXPECT_THAT(e.what(), HasSubstr("script 'f'"));
    EXPECT_THAT(e.what(), HasSubstr("result 1 is an omitted value"));
    EXPECT_THAT(e.what(), HasSubstr(this_file_at(line)));
  }
}

}  // namespace
}  // namespace onnxscript
