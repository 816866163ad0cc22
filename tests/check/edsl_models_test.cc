// Models the eDSL builds pass `onnxscript check`: one at opset 18 that only
// the validator can judge, and one with a model-local function whose body
// refers to the function's attributes.

#include <gtest/gtest.h>

#include "check/check_test_util.h"
#include "onnxscript/check/check.h"
#include "onnxscript/serde/check.h"
#include "sample_scripts.h"

namespace onnxscript {
namespace {

using check_test::joined;

TEST(CheckEdslModels, AnOpset18ModelIsValidatedWithoutLibonnx) {
  const check::CheckResult result = check::check_model(testing::opset18_model().to_model());
  EXPECT_TRUE(result.ok()) << result.skipped_reason << joined(result.errors);
  EXPECT_FALSE(result.libonnx_checked);
}

TEST(CheckEdslModels, AFunctionWithAttributeReferencesPasses) {
  const ir::Model model = testing::scaled_caller().to_model();
  ASSERT_FALSE(model.functions().empty());
  const check::CheckResult result = check::check_model(model);
  EXPECT_TRUE(result.ok()) << result.skipped_reason << joined(result.errors);
  // The eDSL writes the IR version the model needs (IR 9 or later for a
  // function's attribute defaults): libonnx checks it only when within IR 8.
  EXPECT_EQ(result.libonnx_checked, !serde::beyond_libonnx(model).has_value());
}

TEST(CheckEdslModels, ABrokenFunctionBodyIsFoundInTheBody) {
  ir::Model model = testing::scaled_caller().to_model();
  ir::Function& f = *model.functions().front();
  // The body's first node loses its required input: an error that names the
  // function and the node.
  ir::Node* first = f.body().first_node();
  ASSERT_NE(first, nullptr);
  first->pop_input();
  const std::vector<std::string> errors = check::validate_model(model);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("function '"), std::string::npos) << joined(errors);
  EXPECT_NE(errors[0].find("node 0 ("), std::string::npos) << joined(errors);
  EXPECT_NE(errors[0].find("0 inputs given"), std::string::npos) << joined(errors);
}

}  // namespace
}  // namespace onnxscript
