// Sequence, optional and Constant kernels called eagerly, and the errors of
// the control-flow kernels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnxscript/eval/eager.h"
#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/ir/ir.h"

namespace onnxscript::eval {
namespace {

using ir::Attribute;
using ::testing::HasSubstr;

RuntimeValue one(std::string_view op, std::vector<RuntimeValue> inputs,
                 std::vector<Attribute> attrs = {}, int64_t version = 17) {
  return run_op(op, inputs, attrs, 1, version).at(0);
}

std::string error_of(std::string_view op, std::vector<RuntimeValue> inputs,
                     std::vector<Attribute> attrs = {}) {
  try {
    one(op, std::move(inputs), std::move(attrs));
  } catch (const KernelError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SequenceKernels, ConstructInsertAtEraseLength) {
  RuntimeValue a = Tensor::from<int64_t>({1}), b = Tensor::from<int64_t>({2, 3}),
               c = Tensor::from<int64_t>({4});
  RuntimeValue seq = one("SequenceConstruct", {a, b});
  EXPECT_EQ(seq.sequence().items.size(), 2u);
  seq = one("SequenceInsert", {seq, c, Tensor::scalar<int64_t>(0)});
  EXPECT_EQ(to_string(seq), "[[4], [1], [2 3]]");
  seq = one("SequenceInsert", {seq, a});  // appends
  EXPECT_EQ(to_string(one("SequenceAt", {seq, Tensor::scalar<int32_t>(-2)})), "[2 3]");
  seq = one("SequenceErase", {seq});  // drops the last
  seq = one("SequenceErase", {seq, Tensor::scalar<int64_t>(0)});
  EXPECT_EQ(to_string(seq), "[[1], [2 3]]");
  EXPECT_EQ(one("SequenceLength", {seq}).tensor().at<int64_t>({}), 2);

  RuntimeValue empty = one("SequenceEmpty", {}, {Attribute::make_int("dtype", 7)});
  EXPECT_EQ(empty.sequence().elem_type, ir::Type::tensor(DataType::kInt64));
  EXPECT_THAT(error_of("SequenceAt", {seq, Tensor::scalar<int64_t>(2)}),
              HasSubstr("SequenceAt: position 2 is out of range for a sequence of 2 elements"));
  EXPECT_THAT(error_of("SequenceInsert", {empty, Tensor::from<float>({1})}),
              HasSubstr("cannot insert a float tensor"));
  EXPECT_THAT(error_of("SequenceErase", {empty}), HasSubstr("empty sequence"));
  EXPECT_THAT(error_of("SequenceLength", {a}),
              HasSubstr("SequenceLength: input 0 must be a sequence"));
  EXPECT_THAT(error_of("SequenceConstruct", {a, Tensor::from<float>({1})}),
              HasSubstr("input 1 is float"));
}

TEST(SequenceKernels, SplitAndConcatRoundTrip) {
  RuntimeValue x = Tensor::arange<float>(0, 6).reshaped({3, 2});
  RuntimeValue rows = one("SplitToSequence", {x}, {Attribute::make_int("keepdims", 0)});
  EXPECT_EQ(to_string(rows), "[[0. 1.], [2. 3.], [4. 5.]]");
  RuntimeValue uneven = one("SplitToSequence", {x, Tensor::scalar<int64_t>(2)});
  EXPECT_EQ(to_string(uneven), "[[[0. 1.]\n [2. 3.]], [[4. 5.]]]");
  RuntimeValue cols =
      one("SplitToSequence", {x, Tensor::from<int32_t>({1, 1})}, {Attribute::make_int("axis", -1)});
  EXPECT_EQ(to_string(cols), "[[[0.]\n [2.]\n [4.]], [[1.]\n [3.]\n [5.]]]");
  EXPECT_THAT(error_of("SplitToSequence", {x, Tensor::from<int64_t>({1, 1})}),
              HasSubstr("add up to 2 but the axis has 3"));

  RuntimeValue back = one("ConcatFromSequence", {cols}, {Attribute::make_int("axis", 1)});
  EXPECT_TRUE(back.tensor().same_contents(x.tensor()));
  RuntimeValue stacked = one("ConcatFromSequence", {rows},
                             {Attribute::make_int("axis", 0), Attribute::make_int("new_axis", 1)});
  EXPECT_TRUE(stacked.tensor().same_contents(x.tensor()));
  RuntimeValue stacked_last =
      one("ConcatFromSequence", {rows},
          {Attribute::make_int("axis", -1), Attribute::make_int("new_axis", 1)});
  EXPECT_EQ(stacked_last.tensor().shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(error_of("ConcatFromSequence", {uneven}, {Attribute::make_int("axis", 1)}),
              HasSubstr("cannot concatenate"));
}

TEST(OptionalKernels, WrapTestAndUnwrap) {
  RuntimeValue t = Tensor::from<float>({1});
  RuntimeValue full = one("Optional", {t}, {}, 15);
  EXPECT_TRUE(one("OptionalHasElement", {full}, {}, 15).tensor().at<bool>({}));
  EXPECT_EQ(one("OptionalGetElement", {full}, {}, 15).tensor().storage(), t.tensor().storage());
  RuntimeValue empty = one(
      "Optional", {},
      {Attribute("type", ir::AttributeType::kTypeProto, ir::Type::tensor(DataType::kFloat))}, 15);
  EXPECT_FALSE(one("OptionalHasElement", {empty}, {}, 15).tensor().at<bool>({}));
  EXPECT_THROW(one("OptionalGetElement", {empty}, {}, 15), KernelError);
  EXPECT_THROW(one("Optional", {}, {}, 15), KernelError);
  // From opset 18 plain values and omitted inputs are accepted.
  EXPECT_TRUE(one("OptionalHasElement", {t}, {}, 18).tensor().at<bool>({}));
  EXPECT_FALSE(one("OptionalHasElement", {RuntimeValue()}, {}, 18).tensor().at<bool>({}));
  EXPECT_THROW(one("OptionalHasElement", {t}, {}, 15), KernelError);
}

TEST(ConstantKernel, EveryValueAttribute) {
  EXPECT_EQ(to_string(one("Constant", {},
                          {Attribute::make_tensor("value", Tensor::from<int32_t>({1, 2}))})),
            "[1 2]");
  EXPECT_EQ(to_string(one("Constant", {}, {Attribute::make_float("value_float", 1.5f)})), "1.5");
  EXPECT_EQ(to_string(one("Constant", {}, {Attribute::make_floats("value_floats", {1, 2})})),
            "[1. 2.]");
  EXPECT_EQ(one("Constant", {}, {Attribute::make_int("value_int", 3)}).tensor().dtype(),
            DataType::kInt64);
  EXPECT_EQ(to_string(one("Constant", {}, {Attribute::make_ints("value_ints", {3, 4})})), "[3 4]");
  EXPECT_EQ(to_string(one("Constant", {}, {Attribute::make_string("value_string", "hi")})), "'hi'");
  EXPECT_EQ(to_string(one("Constant", {}, {Attribute::make_strings("value_strings", {"a", "b"})})),
            "['a' 'b']");
  ir::SparseTensor sparse{Tensor::from<float>({5, 6}), Tensor::from<int64_t>({1, 3}), {2, 2}};
  EXPECT_EQ(to_string(one("Constant", {},
                          {Attribute("sparse_value", ir::AttributeType::kSparseTensor, sparse)})),
            "[[0. 5.]\n [0. 6.]]");
  EXPECT_THAT(error_of("Constant", {}), HasSubstr("Constant: has no value attribute"));
  EXPECT_THAT(
      error_of("Constant", {},
               {Attribute::make_int("value_int", 1), Attribute::make_float("value_float", 1)}),
      HasSubstr("exactly one value attribute"));
  EXPECT_THAT(error_of("Constant", {}, {Attribute::make_int("value", 1)}), HasSubstr("Constant:"));
}

TEST(ControlFlowKernels, BadConditionsAndMissingRunnerAreKernelErrors) {
  auto branch = std::make_shared<ir::Graph>("b");
  std::vector<Attribute> attrs = {Attribute::make_graph("then_branch", branch),
                                  Attribute::make_graph("else_branch", branch)};
  EXPECT_THAT(error_of("If", {Tensor::from<int32_t>({1})}, attrs),
              HasSubstr("If: cond must be bool"));
  EXPECT_THAT(error_of("If", {Tensor::from<bool>({true, false})}, attrs),
              HasSubstr("If: cond must hold one element"));
  // Eager calls without a graph runner cannot run subgraphs.
  EXPECT_THAT(error_of("If", {Tensor::scalar(true)}, attrs), HasSubstr("no graph runner"));
  EXPECT_THAT(error_of("Loop", {Tensor::scalar<int32_t>(1), RuntimeValue()},
                       {Attribute::make_graph("body", branch)}),
              HasSubstr("Loop:"));
}

}  // namespace
}  // namespace onnxscript::eval
