// Attribute parameters of script functions: one conversion for what a call
// passes (traced or eager) and for defaults, as operator attributes have.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "error_message.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/onnxscript.h"
#include "onnxscript/serde/text.h"

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

// An attribute used as a value takes the element type of the value beside
// it, as a C++ literal does, in both modes.
const Function scale =
    script("Scale", {"X", {"alpha", 0.5}}, [](Value X, Attr<float> alpha) { return X / alpha; });

Tensor cast(const Tensor& t, DataType dtype) {
  return eval::run_op("Cast", {t}, {ir::Attribute::make_int("to", static_cast<int64_t>(dtype))})
      .at(0)
      .tensor();
}

template <typename T>
std::vector<T> elements(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

TEST(AttributesAsValues, TakeTheElementTypeOfTheirPeerEagerly) {
  // Threw "Div: inputs 'A' and 'B' share type T but are tensor(double) and
  // tensor(float)".
  const Tensor d = scale(Tensor::from<double>({1.0, 3.0}));
  EXPECT_EQ(d.dtype(), DataType::kDouble);
  EXPECT_EQ(elements<double>(d), (std::vector<double>{2.0, 6.0}));
  const Tensor h = scale(cast(Tensor::from<float>({1.0f, 3.0f}), DataType::kFloat16), 0.25f);
  EXPECT_EQ(h.dtype(), DataType::kFloat16);
  EXPECT_EQ(elements<float>(cast(h, DataType::kFloat)), (std::vector<float>{4.0f, 12.0f}));
}

// A model whose input is `X` of element type `dtype`, calling Scale.
ir::Model scale_model(DataType dtype) {
  const Function main = dtype == DataType::kDouble
                            ? script("main", {"X"}, [](DOUBLE<"N"> X) { return scale(X, 0.1f); })
                            : script("main", {"X"}, [](FLOAT16<"N"> X) { return scale(X, 0.1f); });
  return main.to_model();
}

TEST(AttributesAsValues, TheExportedModelRunsAndAgreesWithEagerMode) {
  for (const DataType dtype : {DataType::kDouble, DataType::kFloat16}) {
    SCOPED_TRACE(ir::data_type_name(dtype));
    ir::Model model = scale_model(dtype);
    // The function body does not know X's type: the attribute follows it
    // with CastLike (it was divided as a float32, which the Session and ONNX
    // Runtime rejected).
    const std::string text = text::print_model(model);
    EXPECT_THAT(text, HasSubstr("CastLike"));
    const Tensor x = cast(Tensor::from<double>({1.0, 3.0}), dtype);
    const Tensor ours = eval::Session(std::move(model)).run({x}).at(0).tensor();
    const Tensor eager = scale(x, 0.1f);
    ASSERT_EQ(ours.dtype(), dtype);
    ASSERT_EQ(eager.dtype(), dtype);
    // The same float32 attribute converted to the same type: equal bits.
    EXPECT_EQ(elements<double>(cast(ours, DataType::kDouble)),
              elements<double>(cast(eager, DataType::kDouble)));
  }
}

TEST(AttributesAsValues, AKnownPeerTypeGivesACastAndTheSameTypeNone) {
  const Function typed = script("typed", {"X", {"alpha", 0.5}},
                                [](DOUBLE<"N"> X, Attr<float> alpha) { return X * alpha; });
  const std::string text = typed.to_text();
  EXPECT_THAT(text, HasSubstr("Cast <to: int = 11>"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("CastLike")));
  const Function same = script("same", {"X", {"alpha", 0.5}},
                               [](FLOAT<"N"> X, Attr<float> alpha) { return X * alpha; });
  EXPECT_THAT(same.to_text(), ::testing::Not(HasSubstr("Cast")));
}

TEST(AttributesAsValues, AnIntAttributeFollowsAFloatPeerAndStaysIntAlone) {
  const Function f = script("f", {"X", "n"}, [](FLOAT<"N"> X, Attr<int64_t> n) {
    return std::tuple{X * n, n * 2};
  });
  const auto [y, m] = f(Tensor::from<float>({1.5f}), 3).as<2>();
  EXPECT_EQ(y.tensor().dtype(), DataType::kFloat);
  EXPECT_EQ(y.tensor().data<float>()[0], 4.5f);
  EXPECT_EQ(m.tensor().dtype(), DataType::kInt64);
  EXPECT_EQ(m.tensor().data<int64_t>()[0], 6);
}

}  // namespace
}  // namespace onnxscript
