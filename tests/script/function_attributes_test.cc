// Attribute parameters of script functions: one conversion for what a call
// passes (traced or eager) and for defaults, as operator attributes have.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "error_message.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

using ::testing::HasSubstr;
namespace op = opset17;

// Y = LeakyRelu(X, alpha): the attribute is used as an operator attribute.
const Function leaky = script("leaky", {"X", "alpha"}, [](FLOAT<"N"> X, Attr<float> alpha) {
  return op::LeakyRelu(X, {.alpha = alpha});
});

Tensor minus_two() { return Tensor::from<float>({-2.0f}); }

TEST(FunctionAttributes, AnIntForAFloatAttributeIsAFloatEagerly) {
  const Tensor y = leaky(minus_two(), 2);  // threw "attribute 'alpha' is int, not float"
  EXPECT_EQ(y.data<float>()[0], -4.0f);
}

TEST(FunctionAttributes, AnIntForAFloatAttributeIsAFloatInTheTracedCall) {
  const Function caller = script("caller", {"X"}, [](FLOAT<"N"> X) { return leaky(X, 2); });
  ir::Model model = caller.to_model();
  const ir::Node* call = *model.graph().nodes().begin();
  ASSERT_EQ(call->op_type(), "leaky");
  const ir::Attribute* alpha = call->attribute("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->type, ir::AttributeType::kFloat);  // was <alpha: int = 2>
  EXPECT_EQ(alpha->as_float(), 2.0f);
  // The exported model runs, and agrees with eager mode.
  const Tensor y = eval::Session(std::move(model)).run({minus_two()}).at(0).tensor();
  EXPECT_EQ(y.data<float>()[0], -4.0f);
}

TEST(FunctionAttributes, AnIntDefaultForAFloatAttributeIsAFloatInEveryMode) {
  const Function f = script("f", {"X", {"alpha", 2}}, [](FLOAT<"N"> X, Attr<float> alpha) {
    return op::LeakyRelu(X, {.alpha = alpha});
  });
  EXPECT_EQ(Tensor(f(minus_two())).data<float>()[0], -4.0f);
  const ir::Function& fn = f.to_function();
  ASSERT_EQ(fn.attribute_defaults.size(), 1u);
  EXPECT_EQ(fn.attribute_defaults[0].type, ir::AttributeType::kFloat);
  EXPECT_EQ(fn.attribute_defaults[0].as_float(), 2.0f);
}

TEST(FunctionAttributes, IntListsForFloatListsAreFloatLists) {
  const Function f =
      script("f", {"X", "scales"},
             [](FLOAT<"N"> X, Attr<std::vector<float>> scales) { return X * Value(scales); });
  const Tensor y = f(Tensor::from<float>({3.0f}), std::vector<int64_t>{2});
  EXPECT_EQ(y.data<float>()[0], 6.0f);
}

TEST(FunctionAttributes, AMismatchNamesTheFunctionTheAttributeAndTheCaller) {
  const int line = __LINE__ + 1;
  const std::string m = testing::message_of<ScriptError>([] { (void)leaky(minus_two(), "two"); });
  EXPECT_THAT(m, HasSubstr("'leaky'"));
  EXPECT_THAT(m, HasSubstr("attribute 'alpha' is string, but the parameter is float"));
  EXPECT_THAT(m, HasSubstr("function_attributes_test.cc:" + std::to_string(line)));
}

TEST(FunctionAttributes, AMismatchedDefaultNamesTheScript) {
  const int line = __LINE__ + 2;
  const std::string m = testing::message_of<ScriptError>([] {
    (void)script("g", {"X", {"alpha", "two"}}, [](FLOAT<"N"> X, Attr<float> alpha) {
      return op::LeakyRelu(X, {.alpha = alpha});
    });
  });
  EXPECT_THAT(m, HasSubstr("'g': the default of attribute 'alpha' is string"));
  EXPECT_THAT(m, HasSubstr("function_attributes_test.cc:" + std::to_string(line)));
}

}  // namespace
}  // namespace onnxscript
