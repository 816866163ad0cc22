// An eager call checks its tensors against the types the lambda declares, as
// a Session checks a model's inputs: the two modes accept the same arguments.
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

const Function project = script("project", {"X"}, [](FLOAT<"B", 64> X) { return op::Relu(X); });

std::string eager_error(const Tensor& x, int* line) {
  *line = __LINE__ + 1;
  return testing::message_of<ScriptError>([&] { (void)project(x); });
}

TEST(EagerSignature, AStaticDimensionMustMatch) {
  int line = 0;
  const std::string m = eager_error(Tensor::zeros(DataType::kFloat, {2, 32}), &line);
  EXPECT_THAT(m, HasSubstr("'project': input 'X' must be float[B,64]"));
  EXPECT_THAT(m, HasSubstr("dimension 1 must be 64 (float[B,64]), got shape [2,32]"));
  EXPECT_THAT(m, HasSubstr("eager_signature_test.cc:" + std::to_string(line)));
  // The Session refuses the same input.
  ir::Model model = project.to_model();
  EXPECT_THROW(eval::Session(std::move(model)).run({Tensor::zeros(DataType::kFloat, {2, 32})}),
               Error);
}

TEST(EagerSignature, TheRankMustMatch) {
  int line = 0;
  EXPECT_THAT(eager_error(Tensor::zeros(DataType::kFloat, {2, 64, 1}), &line),
              HasSubstr("expected rank 2 (float[B,64]), got rank 3"));
}

TEST(EagerSignature, TheElementTypeMustMatchAndIsNamed) {
  int line = 0;
  const std::string m = eager_error(Tensor::zeros(DataType::kDouble, {2, 64}), &line);
  EXPECT_THAT(m, HasSubstr("'project': input 'X' must be float[B,64]: expected element type float, "
                           "got double"));
}

TEST(EagerSignature, SymbolicDimensionsTakeAnySize) {
  EXPECT_EQ(Tensor(project(Tensor::zeros(DataType::kFloat, {3, 64}))).shape(),
            (std::vector<int64_t>{3, 64}));
  EXPECT_EQ(Tensor(project(Tensor::zeros(DataType::kFloat, {0, 64}))).shape(),
            (std::vector<int64_t>{0, 64}));
}

}  // namespace
}  // namespace onnxscript
