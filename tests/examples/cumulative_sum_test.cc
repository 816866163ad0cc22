// examples/cumulative_sum.cc: Scan with a body built by graph(). The exported
// model passes the checker, its text is pinned, and eager mode, a Session and
// ONNX Runtime all give the running sums computed here with a plain loop.

#include <gtest/gtest.h>

#include <vector>

#define ONNXSCRIPT_EXAMPLE_NO_MAIN
#include "cumulative_sum.cc"
#include "golden.h"
#include "interop/ort_runner.h"
#include "onnxscript/check/check.h"

namespace {

using namespace onnxscript;

std::vector<float> running_sums(const std::vector<float>& x) {
  std::vector<float> out;
  float acc = 0;
  for (float v : x) out.push_back(acc += v);
  return out;
}

void expect_sums(const Tensor& actual, const std::vector<float>& x, const char* what) {
  const std::vector<float> expected = running_sums(x);
  ASSERT_EQ(actual.dtype(), DataType::kFloat) << what;
  ASSERT_EQ(actual.shape(), (std::vector<int64_t>{static_cast<int64_t>(x.size())})) << what;
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_FLOAT_EQ(actual.data<float>()[i], expected[i]) << what << i;
}

const std::vector<float> kSmall{1, 2, 3, 4, 5};
const std::vector<float> kOther{0.5f, -2, 7, 0, 1.25f, 3, -1};

TEST(CumulativeSum, ExportedModelPassesTheChecker) {
  const check::CheckResult result = check::check_model(CumulativeSum.to_model());
  EXPECT_TRUE(result.ok()) << result.skipped_reason << ::testing::PrintToString(result.errors);
}

TEST(CumulativeSum, EagerGivesRunningSums) {
  const Tensor eager = CumulativeSum(Tensor::from<float>({1, 2, 3, 4, 5}));
  EXPECT_TRUE(eager.same_contents(Tensor::from<float>({1, 3, 6, 10, 15})));
  const Tensor other = CumulativeSum(Tensor::from_span<float>(kOther));
  expect_sums(other, kOther, "eager");
}

TEST(CumulativeSum, SessionOnExportedModelGivesRunningSums) {
  eval::Session session(CumulativeSum.to_model());
  for (const auto& x : {kSmall, kOther}) {
    expect_sums(session.run({Tensor::from_span<float>(x)}).at(0).tensor(), x, "session");
  }
}

TEST(CumulativeSum, OnnxRuntimeOnExportedModelGivesRunningSums) {
  const ir::Model model = CumulativeSum.to_model();
  for (const auto& x : {kSmall, kOther}) {
    const auto outs = onnxscript::testing::run_in_onnxruntime(model, {Tensor::from_span<float>(x)});
    ASSERT_EQ(outs.size(), 1u);
    expect_sums(outs[0].tensor(), x, "onnxruntime");
  }
}

TEST(Golden, CumulativeSum) {
  onnxscript::testing::expect_golden("examples/cumulative_sum", CumulativeSum.to_text());
}

}  // namespace
