// A script attribute used as a value takes the element type of the value
// beside it: the exported model, where the function body cannot know that
// type and converts the attribute with CastLike, runs in ONNX Runtime 1.30
// and agrees with our Session and with eager mode. (It was divided as a
// float32, which ONNX Runtime rejected.)
#include <gtest/gtest.h>

#include <vector>

#include "interop/ort_runner.h"
#include "onnxscript/eval/eager.h"
#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

const Function Scale =
    script("Scale", {"X", {"alpha", 0.5}}, [](Value X, Attr<float> alpha) { return X / alpha; });

const Function ScaleDouble =
    script("ScaleDouble", {"X"}, [](DOUBLE<"N"> X) { return Scale(X, 0.1f); });
const Function ScaleHalf =
    script("ScaleHalf", {"X"}, [](FLOAT16<"N"> X) { return Scale(X, 0.1f); });

Tensor cast(const Tensor& t, DataType dtype) {
  return eval::run_op("Cast", {t}, {ir::Attribute::make_int("to", static_cast<int64_t>(dtype))})
      .at(0)
      .tensor();
}

TEST(AttributeValuesInOnnxRuntime, TakeTheTypeOfTheValueBesideThem) {
  ASSERT_TRUE(testing::onnxruntime_available()) << testing::onnxruntime_unavailable_reason();
  for (const Function* f : {&ScaleDouble, &ScaleHalf}) {
    const DataType dtype = f == &ScaleDouble ? DataType::kDouble : DataType::kFloat16;
    const Tensor x = cast(Tensor::from<double>({1.0, 3.0, -7.5}), dtype);
    const eval::RuntimeValue ort = testing::run_in_onnxruntime(f->to_model(), {x}).at(0);
    const eval::RuntimeValue ours = eval::Session(f->to_model()).run({x}).at(0);
    const Tensor eager = (*f)(x);
    EXPECT_EQ(eval::to_string(ort), eval::to_string(ours)) << f->name();
    EXPECT_EQ(eval::to_string(ours), eval::to_string(eager)) << f->name();
    EXPECT_EQ(ours.tensor().dtype(), dtype) << f->name();
  }
}

}  // namespace
}  // namespace onnxscript
