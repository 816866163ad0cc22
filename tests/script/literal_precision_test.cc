// A literal beside a value whose element type is unknown while tracing goes
// through CastLike; the constant it starts from must not lose precision the
// eager run keeps.
#include <gtest/gtest.h>

#include <utility>

#include "onnxscript/onnxscript.h"

namespace onnxscript {
namespace {

TEST(LiteralPrecision, AnUntypedDoubleInputGetsTheLiteralExactlyInTheExportedModel) {
  // X has no declared type, so 0.01 becomes a constant plus CastLike(X).
  const Function scale = script("scale", {"X"}, [](Value X) { return X * 0.01; });
  const Tensor x = Tensor::from<double>({3.0, 1e6});
  const Tensor eager = scale(x);
  ir::Model model = scale.to_model();
  const Tensor exported = eval::Session(std::move(model)).run({x}).at(0).tensor();
  ASSERT_EQ(exported.dtype(), DataType::kDouble);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(eager.data<double>()[i], x.data<double>()[i] * 0.01);
    // A float32 constant made this 3 * 0.0099999997764825820922851562 before.
    EXPECT_EQ(exported.data<double>()[i], eager.data<double>()[i]) << i;
  }
}

TEST(LiteralPrecision, AFloatInputStillGetsTheFloatNearestTheLiteral) {
  const Function scale = script("scale", {"X"}, [](Value X) { return X * 0.01; });
  const Tensor x = Tensor::from<float>({3.0f});
  ir::Model model = scale.to_model();
  const Tensor exported = eval::Session(std::move(model)).run({x}).at(0).tensor();
  ASSERT_EQ(exported.dtype(), DataType::kFloat);
  EXPECT_EQ(exported.data<float>()[0], 3.0f * static_cast<float>(0.01));
}

}  // namespace
}  // namespace onnxscript
