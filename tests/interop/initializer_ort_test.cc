// Weights made with initializer() run in ONNX Runtime 1.30: as graph
// initializers of a model, and as the Constant nodes a model-local function
// holds instead. The outputs are compared with values computed here.
#include <gtest/gtest.h>

#include <vector>

#include "interop/ort_runner.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

namespace op = opset17;

const Tensor kScale = Tensor::from<float>({2.0f, -3.0f, 0.5f});
const Tensor kShift = Tensor::from<float>({10.0f, 20.0f, 30.0f});

// y = relu(x * scale + shift), the weights stored.
const Function ScaleShift = script("ScaleShift", {"X"}, [](FLOAT<3> X) -> FLOAT<3> {
  const Value scale = initializer(kScale, "scale");
  const Value shift = initializer(kShift);
  return op::Relu(X * scale + shift);
});

// Calls ScaleShift, which becomes a model-local function with Constants.
const Function Twice =
    script("Twice", {"X"}, [](FLOAT<3> X) -> FLOAT<3> { return ScaleShift(ScaleShift(X)); });

// relu(x * scale + shift) for one element, computed here.
float scale_shift(float x, size_t i) {
  const float y = x * kScale.data<float>()[i] + kShift.data<float>()[i];
  return y > 0 ? y : 0;
}

void expect_ort_matches(const Function& f, int applications) {
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
  const std::vector<float> x = {4.0f, 9.0f, -100.0f};
  const std::vector<eval::RuntimeValue> out =
      testing::run_in_onnxruntime(f.to_model(), {Tensor::from<float>({x[0], x[1], x[2]})});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].tensor().numel(), 3);
  for (size_t i = 0; i < 3; ++i) {
    float expected = x[i];
    for (int k = 0; k < applications; ++k) expected = scale_shift(expected, i);
    EXPECT_FLOAT_EQ(out[0].tensor().data<float>()[i], expected) << f.name() << " element " << i;
  }
}

TEST(InitializersInOnnxRuntime, AModelsWeightsAreItsInitializers) {
  ASSERT_EQ(ScaleShift.to_model().graph().initializers().size(), 2u);
  expect_ort_matches(ScaleShift, 1);
}

TEST(InitializersInOnnxRuntime, ACalledFunctionHoldsThemAsConstants) {
  const ir::Model model = Twice.to_model();
  ASSERT_EQ(model.functions().size(), 1u);
  EXPECT_TRUE(model.functions()[0]->body().initializers().empty());
  expect_ort_matches(Twice, 2);
}

}  // namespace
}  // namespace onnxscript
