// The types of a model's outputs: what inference gives is kept even when it
// is only an element type, a lambda may declare the types of several results,
// and save() refuses to write a model the ONNX checker would reject for an
// output without a type or a rank.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>

#include "error_message.h"
#include "onnxscript/check/check.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

using ::testing::HasSubstr;
namespace op = opset17;

// Reshape to a shape known only at run time: inference can tell the element
// type of the result, not its rank.
const Function reshaped =
    script("reshaped", {"X", "S"}, [](Value X, Value S) { return op::Reshape(X, S); });

const int kUntypedLine = __LINE__ + 2;
const Function untyped_rank =
    script("untyped_rank", {"X", "S"}, [](FLOAT<"N"> X, INT64<2> S) { return reshaped(X, S); });

const Function declared = script(
    "declared", {"X", "S"}, [](FLOAT<"N"> X, INT64<2> S) -> FLOAT<"A", "B"> {
      return FLOAT<"A", "B">(Value(reshaped(X, S)));
    });

const Function declared_pair = script(
    "declared_pair", {"X", "S"},
    [](FLOAT<"N"> X, INT64<2> S) -> std::tuple<FLOAT<"A", "B">, FLOAT<"A", "B">> {
      Value r = reshaped(X, S);
      return {FLOAT<"A", "B">(r), FLOAT<"A", "B">(op::Neg(r))};
    });

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("onnxscript_model_signature_" + name);
}

TEST(ModelSignature, AnElementTypeAloneIsKept) {
  const ir::Model model = untyped_rank.to_model();
  const auto& type = model.graph().outputs()[0]->type();
  ASSERT_TRUE(type.has_value());  // was dropped: no type at all
  EXPECT_EQ(type->elem_type, DataType::kFloat);
  EXPECT_FALSE(type->shape.has_value());
}

TEST(ModelSignature, SaveRefusesAnOutputWithoutARankAndWritesNothing) {
  const std::filesystem::path path = temp_path("untyped.onnx");
  std::filesystem::remove(path);
  const std::string m = testing::message_of<ScriptError>([&] { untyped_rank.save(path); });
  EXPECT_THAT(m, HasSubstr("script 'untyped_rank': the rank (its element type is float) of "
                           "output 't0' is not known while building"));
  EXPECT_THAT(m, HasSubstr("return type"));
  EXPECT_THAT(m, HasSubstr("model_signature_test.cc:" + std::to_string(kUntypedLine)));
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(ModelSignature, SaveRefusesAnUntypedInput) {
  const std::string m =
      testing::message_of<ScriptError>([&] { reshaped.save(temp_path("untyped_input.onnx")); });
  EXPECT_THAT(m, HasSubstr("the type of input 'X' is not known while building"));
}

TEST(ModelSignature, ADeclaredReturnTypeMakesAValidModel) {
  const std::filesystem::path path = temp_path("declared.onnx");
  declared.save(path);
  const check::CheckResult result = check::check_model(serde::load_model(path));
  EXPECT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors[0]);
  std::filesystem::remove(path);
}

TEST(ModelSignature, ATupleReturnTypeDeclaresEveryResult) {
  const ir::Model model = declared_pair.to_model();
  ASSERT_EQ(model.graph().outputs().size(), 2u);
  for (const ir::Value* out : model.graph().outputs()) {
    ASSERT_TRUE(out->type().has_value());
    EXPECT_EQ(out->type()->to_string(), "float[A,B]");
  }
  EXPECT_TRUE(check::check_model(model).ok());
}

}  // namespace
}  // namespace onnxscript
