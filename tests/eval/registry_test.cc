#include "onnxscript/eval/eager.h"

#include <gtest/gtest.h>

namespace onnxscript::eval {
namespace {

void first(KernelContext& ctx) { ctx.set_output(0, Tensor(DataType::kFloat, {1})); }
void second(KernelContext& ctx) { ctx.set_output(0, Tensor(DataType::kFloat, {2})); }

TEST(KernelRegistry, PicksTheNewestVersionNotAfterTheImport) {
  KernelRegistry r;
  r.add("", "Op", 13, second);
  r.add("ai.onnx", "Op", 1, first);
  EXPECT_EQ(r.find("", "Op", 0), nullptr);
  EXPECT_EQ(r.find("", "Op", 1), &first);
  EXPECT_EQ(r.find("", "Op", 12), &first);
  EXPECT_EQ(r.find("ai.onnx", "Op", 13), &second);
  EXPECT_EQ(r.find("", "Op", 17), &second);
  EXPECT_EQ(r.find("", "Other", 17), nullptr);
  EXPECT_EQ(r.find("com.x", "Op", 17), nullptr);
}

TEST(Eager, RunsBuiltinKernelsAndNamesMissingOnes) {
  Tensor t(DataType::kInt64, {3});
  auto out = run_op("Identity", {RuntimeValue(t)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tensor().storage(), t.storage());
  try {
    run_op("NoSuchOp", {RuntimeValue(t)});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_EQ(std::string(e.what()),
              "no kernel for NoSuchOp at opset 17 (inputs: tensor(int64)[3])");
  }
}

TEST(KernelContext, AttributeOfWrongTypeNamesTheOperator) {
  std::vector<RuntimeValue> outputs(1);
  ir::Attribute axis = ir::Attribute::make_float("axis", 1.0f);
  KernelContext ctx({"", "Concat", 13}, std::span<const RuntimeValue>(), outputs,
                    std::span(&axis, 1));
  EXPECT_EQ(ctx.attr_int("missing", 7), 7);
  try {
    ctx.attr_int("axis", 0);
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_STREQ(e.what(), "Concat: attribute 'axis' is float, not int");
  }
}

}  // namespace
}  // namespace onnxscript::eval
