// examples/dropout.cc: the exported model passes the checker, its text is
// pinned, and eager mode, a Session on the exported model and ONNX Runtime
// all keep Dropout's contract. Training draws at random, so the tests check
// the relation between data, mask and output rather than exact values.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#define ONNXSCRIPT_EXAMPLE_NO_MAIN
#include "dropout.cc"
#include "golden.h"
#include "interop/ort_runner.h"
#include "onnxscript/check/check.h"

namespace {

using namespace onnxscript;

constexpr float kRatio = 0.25f;

// Checks the contract independently of the example's own helper: the mask
// has data's shape; not training, it is all true and output == data;
// training, output == data * mask / (1 - ratio).
void expect_dropout(const Tensor& data, bool training, const Tensor& output, const Tensor& mask,
                    const char* what) {
  ASSERT_EQ(mask.dtype(), DataType::kBool) << what;
  ASSERT_EQ(mask.shape(), data.shape()) << what;
  ASSERT_EQ(output.dtype(), DataType::kFloat) << what;
  ASSERT_EQ(output.shape(), data.shape()) << what;
  int64_t kept = 0;
  for (int64_t i = 0; i < data.numel(); ++i) {
    const bool keep = mask.data<bool>()[i];
    kept += keep;
    if (!training) {
      EXPECT_TRUE(keep) << what << " at " << i;
    }
    const float x = data.data<float>()[i];
    const float expected = !keep ? 0.0f : training ? x / (1.0f - kRatio) : x;
    EXPECT_NEAR(output.data<float>()[i], expected, 1e-5f * (1 + std::fabs(expected)))
        << what << " at " << i;
  }
  // With 600 draws and p(keep) = 0.75, both outcomes occur.
  if (training) {
    EXPECT_GT(kept, 0) << what;
    EXPECT_LT(kept, data.numel()) << what;
  }
}

// Values away from zero, so that a dropped element is told from a kept one.
Tensor sample_data() { return (Value(Tensor::rand({20, 30}, 5)) + 1.0f).tensor(); }

TEST(Dropout, ExportedModelPassesTheChecker) {
  const check::CheckResult result = check::check_model(dropout_model.to_model());
  EXPECT_TRUE(result.ok()) << result.skipped_reason << ::testing::PrintToString(result.errors);
}

TEST(Dropout, EagerKeepsTheContract) {
  const Tensor data = sample_data();
  for (bool training : {false, true}) {
    auto [output, mask] =
        Dropout(data, Tensor::scalar(kRatio), Tensor::scalar(training), 3.0f).as<2>();
    expect_dropout(data, training, output.tensor(), mask.tensor(),
                   training ? "eager training" : "eager inference");
  }
}

TEST(Dropout, SessionOnExportedModelKeepsTheContract) {
  const Tensor data = sample_data();
  eval::Session session(dropout_model.to_model());
  for (bool training : {false, true}) {
    const std::vector<eval::RuntimeValue> inputs{data, Tensor::scalar(kRatio),
                                                 Tensor::scalar(training)};
    const auto outs = session.run(inputs);
    ASSERT_EQ(outs.size(), 2u);
    expect_dropout(data, training, outs[0].tensor(), outs[1].tensor(),
                   training ? "session training" : "session inference");
  }
}

TEST(Dropout, OnnxRuntimeOnExportedModelKeepsTheContract) {
  const Tensor data = sample_data();
  const ir::Model model = dropout_model.to_model();
  for (bool training : {false, true}) {
    const auto outs = onnxscript::testing::run_in_onnxruntime(
        model, {data, Tensor::scalar(kRatio), Tensor::scalar(training)});
    ASSERT_EQ(outs.size(), 2u);
    expect_dropout(data, training, outs[0].tensor(), outs[1].tensor(),
                   training ? "ort training" : "ort inference");
  }
}

TEST(Dropout, CppIfOnTheTracedFlagSaysToUseIf) {
  // The same body written with a C++ `if` on the traced input.
  const Function wrong =
      script("wrong", {"data", "training_mode"}, [](Value data, BOOL<> training_mode) {
        if (training_mode) return data * 2;
        return data;
      });
  try {
    wrong.to_function();
    FAIL() << "expected ScriptError";
  } catch (const ScriptError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the graph input 'training_mode' is used as a C++ bool"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("use If("), std::string::npos) << message;
  }
}

TEST(Golden, Dropout) {
  onnxscript::testing::expect_golden("examples/dropout", dropout_model.to_text());
}

}  // namespace
