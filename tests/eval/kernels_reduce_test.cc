// Tests for the Reduce* kernels (src/eval/kernels/reduce/).
#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using A = ir::Attribute;

using test_util::values;

// x = [[1, 2, 3], [4, 5, 6]]
Tensor x23() { return Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3}); }

TEST(Reduce, EachKindOverAxis1) {
  auto run = [](const char* op) {
    return values<float>(
        run_op(op, {x23()}, {A::make_ints("axes", {1}), A::make_int("keepdims", 0)})[0]);
  };
  EXPECT_THAT(run("ReduceSum"), ElementsAre(6, 15))
      << "at opset 17 ReduceSum also honours the attribute";
  EXPECT_THAT(run("ReduceMean"), ElementsAre(2, 5));
  EXPECT_THAT(run("ReduceMax"), ElementsAre(3, 6));
  EXPECT_THAT(run("ReduceMin"), ElementsAre(1, 4));
  EXPECT_THAT(run("ReduceProd"), ElementsAre(6, 120));
  EXPECT_THAT(run("ReduceL1"), ElementsAre(6, 15));
  EXPECT_THAT(run("ReduceSumSquare"), ElementsAre(14, 77));
  EXPECT_THAT(run("ReduceL2"),
              ElementsAre(FloatNear(std::sqrt(14.0f), 1e-6), FloatNear(std::sqrt(77.0f), 1e-5)));
  EXPECT_THAT(run("ReduceLogSum"),
              ElementsAre(FloatNear(std::log(6.0f), 1e-6), FloatNear(std::log(15.0f), 1e-6)));
  const float lse0 = std::log(std::exp(1.0f) + std::exp(2.0f) + std::exp(3.0f));
  EXPECT_THAT(run("ReduceLogSumExp"),
              ElementsAre(FloatNear(lse0, 1e-5), FloatNear(lse0 + 3, 1e-5)));
}

TEST(Reduce, LogSumExpDoesNotOverflow) {
  auto out =
      run_op("ReduceLogSumExp", {Tensor::from<float>({1000, 1000})}, {A::make_int("keepdims", 0)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(FloatNear(1000 + std::log(2.0f), 1e-3)));
}

TEST(Reduce, DefaultReducesAllAndKeepsDims) {
  auto out = run_op("ReduceMax", {x23()});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_THAT(values<float>(out[0]), ElementsAre(6));
}

TEST(Reduce, NegativeAndMultipleAxes) {
  Tensor x(DataType::kInt64, {2, 3, 2});
  for (int64_t i = 0; i < 12; ++i) x.data<int64_t>()[i] = i;
  auto out = run_op("ReduceSum", {x}, {A::make_ints("axes", {0, -1})}, 1, 11);
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{1, 3, 1}));
  // Sum over i and k of 6i + 2j + k = (0+1) + (6+7) + 4j... = 14 + 8j.
  EXPECT_THAT(values<int64_t>(out[0]), ElementsAre(14, 22, 30));
}

TEST(ReduceSum, AxesInputAndNoopWithEmptyAxes) {
  auto out = run_op("ReduceSum", {x23(), Tensor::from<int64_t>({0})}, {A::make_int("keepdims", 0)});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(5, 7, 9));
  Tensor empty(DataType::kInt64, {0});
  out = run_op("ReduceSum", {x23(), empty}, {A::make_int("noop_with_empty_axes", 1)});
  EXPECT_EQ(out[0].tensor().shape(), (std::vector<int64_t>{2, 3}));
  out = run_op("ReduceSum", {x23(), empty});
  EXPECT_THAT(values<float>(out[0]), ElementsAre(21));
}

TEST(Reduce, IntegerMeanTruncatesAndEmptySetsGiveIdentities) {
  auto out = run_op("ReduceMean", {Tensor::from<int32_t>({1, 2})}, {A::make_int("keepdims", 0)});
  EXPECT_THAT(values<int32_t>(out[0]), ElementsAre(1));
  Tensor empty(DataType::kFloat, {2, 0});
  EXPECT_THAT(values<float>(run_op("ReduceSum", {empty, Tensor::from<int64_t>({1})})[0]),
              ElementsAre(0, 0));
  EXPECT_THAT(values<float>(run_op("ReduceProd", {empty}, {A::make_ints("axes", {1})})[0]),
              ElementsAre(1, 1));
  auto mx = values<float>(run_op("ReduceMax", {empty}, {A::make_ints("axes", {1})})[0]);
  EXPECT_TRUE(std::isinf(mx[0]) && mx[0] < 0);
}

// Every Reduce operator on an input of shape [2, 0, 4], whose empty axis is
// not the innermost (ONNX 1.22's test_reduce_sum_empty_set_non_reduced_axis_zero
// reduces axis 2 of it). The index walk used to visit one run before it looked
// at the extents: it wrote into an empty accumulator (a crash) and read past
// the empty input, so Max/Min/Prod/LogSumExp over the empty axis 1 gave 0.
TEST(Reduce, AnEmptyOuterAxisGivesEmptyOutputsOrIdentities) {
  const Tensor x(DataType::kFloat, {2, 0, 4});
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    const char* op;
    float identity;  // over an empty set (NaN: a mean of nothing)
  };
  const Case cases[] = {{"ReduceSum", 0.0f},       {"ReduceSumSquare", 0.0f},
                        {"ReduceL1", 0.0f},        {"ReduceL2", 0.0f},
                        {"ReduceProd", 1.0f},      {"ReduceMax", -inf},
                        {"ReduceMin", inf},        {"ReduceLogSum", -inf},
                        {"ReduceLogSumExp", -inf}, {"ReduceMean", std::nanf("")}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    // Axis 2 reduced: nothing to reduce, an empty [2, 0, 1].
    const Tensor kept_empty = run_op(c.op, {x}, {A::make_ints("axes", {2})})[0].tensor();
    EXPECT_EQ(kept_empty.shape(), (std::vector<int64_t>{2, 0, 1}));
    EXPECT_EQ(kept_empty.numel(), 0);
    // Axis 1 reduced: a [2, 1, 4] of the identity.
    const Tensor identities = run_op(c.op, {x}, {A::make_ints("axes", {1})})[0].tensor();
    ASSERT_EQ(identities.shape(), (std::vector<int64_t>{2, 1, 4}));
    for (float v : values<float>(identities)) {
      if (std::isnan(c.identity))
        EXPECT_TRUE(std::isnan(v)) << v;
      else
        EXPECT_EQ(v, c.identity);
    }
  }
}

TEST(Reduce, Float16RoundTrips) {
  Tensor h(DataType::kFloat16, {3});
  for (int i = 0; i < 3; ++i) h.data<float16>()[i] = float16(0.5f * (i + 1));
  auto out = run_op("ReduceSum", {h}, {A::make_int("keepdims", 0)});
  EXPECT_EQ(static_cast<float>(out[0].tensor().data<float16>()[0]), 3.0f);
}

TEST(Reduce, Errors) {
  try {
    run_op("ReduceMin", {x23()}, {A::make_ints("axes", {2})});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ReduceMin: axis 2 is out of range for rank 2"));
  }
  try {
    run_op("ReduceSum", {Tensor::from<bool>({true})});
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ReduceSum: element type bool is not supported"));
  }
}

}  // namespace
}  // namespace onnxscript::eval
