// examples/gelu_and_simple.cc: the exported model passes the checker, its text
// is pinned, and eager mode, a Session on the exported model and ONNX Runtime
// all agree with GELU(A W + Bias) computed here with plain loops.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#define ONNXSCRIPT_EXAMPLE_NO_MAIN
#include "gelu_and_simple.cc"
#include "golden.h"
#include "interop/ort_runner.h"
#include "onnxscript/check/check.h"

namespace {

using namespace onnxscript;

constexpr int64_t kN = 4, kM = 8, kC = 3;

// GELU(A W + Bias), independently of the library.
std::vector<float> expected_simple(const Tensor& a, const Tensor& w, const Tensor& bias) {
  std::vector<float> out(kN * kC);
  for (int64_t i = 0; i < kN; ++i) {
    for (int64_t j = 0; j < kC; ++j) {
      double acc = bias.data<float>()[j];
      for (int64_t k = 0; k < kM; ++k)
        acc += double(a.data<float>()[i * kM + k]) * w.data<float>()[k * kC + j];
      out[i * kC + j] = static_cast<float>(acc * 0.5 * (1.0 + std::erf(acc / std::sqrt(2.0))));
    }
  }
  return out;
}

void expect_values(const Tensor& actual, const std::vector<float>& expected, const char* what) {
  ASSERT_EQ(actual.dtype(), DataType::kFloat) << what;
  ASSERT_EQ(actual.shape(), (std::vector<int64_t>{kN, kC})) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual.data<float>()[i], expected[i], 1e-4 * (1 + std::fabs(expected[i])))
        << what << " at " << i;
  }
}

struct Inputs {
  // Values around zero, so GELU's curve (not just its linear tail) is tested.
  Tensor a = eval_sub_half(Tensor::rand({kN, kM}, 11));
  Tensor w = eval_sub_half(Tensor::rand({kM, kC}, 12));
  Tensor bias = eval_sub_half(Tensor::rand({kC}, 13));

  static Tensor eval_sub_half(const Tensor& t) { return (Value(t) - 0.5).tensor(); }
};

TEST(GeluAndSimple, ExportedModelPassesTheChecker) {
  const check::CheckResult result = check::check_model(simple.to_model());
  EXPECT_TRUE(result.ok()) << result.skipped_reason << ::testing::PrintToString(result.errors);
}

TEST(GeluAndSimple, EagerMatchesIndependentComputation) {
  Inputs in;
  expect_values(simple(in.a, in.w, in.bias), expected_simple(in.a, in.w, in.bias), "eager");
}

TEST(GeluAndSimple, SessionOnExportedModelMatches) {
  Inputs in;
  eval::Session session(simple.to_model());
  const std::vector<eval::RuntimeValue> inputs{in.a, in.w, in.bias};
  expect_values(session.run(inputs).at(0).tensor(), expected_simple(in.a, in.w, in.bias),
                "session");
}

TEST(GeluAndSimple, OnnxRuntimeOnExportedModelMatches) {
  Inputs in;
  const auto outputs =
      onnxscript::testing::run_in_onnxruntime(simple.to_model(), {in.a, in.w, in.bias});
  ASSERT_EQ(outputs.size(), 1u);
  expect_values(outputs[0].tensor(), expected_simple(in.a, in.w, in.bias), "onnxruntime");
}

TEST(Golden, GeluAndSimple) {
  onnxscript::testing::expect_golden("examples/gelu_and_simple", simple.to_text());
}

}  // namespace
