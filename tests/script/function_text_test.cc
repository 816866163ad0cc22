// Function::to_text(): the model in the textual syntax, short enough to read
// when the model holds real weights, and complete when asked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A weight of 1,000 elements whose first element prints as 1.5 and whose
// last as 2.25, so the text shows whether the data is there.
Tensor weight() {
  Tensor w = Tensor::zeros(DataType::kFloat, {1000});
  w.data<float>()[0] = 1.5f;
  w.data<float>()[999] = 2.25f;
  return w;
}

const Function scaled =
    script("scaled", {"X"}, [](FLOAT<1000> X) -> FLOAT<1000> { return X * weight(); });

TEST(FunctionText, ElidesTheDataOfLargeTensorsByDefault) {
  const std::string text = scaled.to_text();
  EXPECT_THAT(text, HasSubstr("float[1000] {...}"));
  EXPECT_THAT(text, Not(HasSubstr("2.25")));
  EXPECT_LT(text.size(), 1000u) << text;
}

TEST(FunctionText, PrintsEveryElementWhenAskedAndThatTextParses) {
  const std::string text = scaled.to_text(-1);
  EXPECT_THAT(text, HasSubstr("{1.5, 0, 0"));
  EXPECT_THAT(text, HasSubstr("2.25}"));
  const ir::Model parsed = text::parse_model(text);
  EXPECT_EQ(text::print_model(parsed), text);
}

TEST(FunctionText, SmallTensorsPrintInFull) {
  const Function small = script("small", {"X"}, [](FLOAT<3> X) -> FLOAT<3> {
    return X * Tensor::from<float>({1.5f, 0.5f, 2.25f});
  });
  EXPECT_THAT(small.to_text(), HasSubstr("{1.5, 0.5, 2.25}"));
}

}  // namespace
}  // namespace onnxscript
