// A model authored at opset 18 (Split with num_outputs, Reduce with axes as an
// input; tests/sample_scripts.h) runs in ONNX Runtime 1.30, in our Session and
// eagerly, with the same results.
#include <gtest/gtest.h>

#include "interop/ort_runner.h"
#include "onnxscript/onnxscript.h"
#include "sample_scripts.h"

namespace onnxscript {
namespace {

TEST(Opset18InOnnxRuntime, SplitAndReduceAgreeWithTheSessionAndEagerMode) {
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
  const Function f = testing::opset18_model();
  const ir::Model model = f.to_model();
  ASSERT_EQ(model.opset_imports.find(""), 18);
  const Tensor x = Tensor::from<float>({1, 7, 3, 2, 4, 6, -1, -5, -3, 8, 0, 1}, {2, 6});
  const std::vector<eval::RuntimeValue> ort = testing::run_in_onnxruntime(model, {x});
  const std::vector<eval::RuntimeValue> ours = eval::Session(f.to_model()).run({x});
  const auto [peak, mean] = f(x).as<2>();
  ASSERT_EQ(ort.size(), 2u);
  // Row maxima of the first halves, row means of the second halves.
  EXPECT_EQ(eval::to_string(ort[0]), eval::to_string(Tensor::from<float>({7, -1}, {2, 1})));
  EXPECT_EQ(eval::to_string(ort[1]), eval::to_string(Tensor::from<float>({4, 3}, {2})));
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(eval::to_string(ours[i]), eval::to_string(ort[i])) << i;
  EXPECT_EQ(eval::to_string(peak.tensor()), eval::to_string(ort[0]));
  EXPECT_EQ(eval::to_string(mean.tensor()), eval::to_string(ort[1]));
}

}  // namespace
}  // namespace onnxscript
