// Tests for the quantization kernels of versions newer than opset 17:
// QuantizeLinear and DequantizeLinear 19/21/23/24/25 (block quantization,
// output_dtype, float8 with saturate, int4/int2 outputs, float16 scales) and
// QLinearMatMul-21 (float16 scales). Expected values are worked out by hand.
#include <cmath>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/kernel_test_util.h"
#include "onnxscript/eval/eager.h"

namespace onnxscript::eval {
namespace {

using A = ir::Attribute;
using test_util::error_of;
using test_util::values;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor run1(std::string_view op, std::vector<RuntimeValue> inputs, std::vector<A> attrs,
            int64_t version) {
  return run_op(op, inputs, attrs, 1, version)[0].tensor();
}

// `t` converted to element type `to` by Cast-25.
Tensor cast(const Tensor& t, DataType to) {
  return run1("Cast", {t}, {A::make_int("to", static_cast<int64_t>(to))}, 25);
}

TEST(QuantizeLinearNew, BlockedWithOutputDtype) {
  // Blocks of 2 along axis 1: row 0 scales 1 and 2, row 1 scales 0.5 and 4.
  // 3 / 2 = 1.5 and 7 / 4 = 1.75 both round to 2.
  const Tensor x = Tensor::from<float>({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  const Tensor scale = Tensor::from<float>({1, 2, 0.5f, 4}, {2, 2});
  for (int64_t v : {21, 23, 24, 25}) {
    Tensor y = run1("QuantizeLinear", {x, scale},
                    {A::make_int("block_size", 2), A::make_int("output_dtype", 3)}, v);
    EXPECT_THAT(values<int8_t>(y), ElementsAre(1, 2, 2, 2, 10, 12, 2, 2)) << v;
  }
  EXPECT_THAT(error_of([&] {
                run1("QuantizeLinear", {x, Tensor::from<float>({1, 2}, {2, 1})},
                     {A::make_int("block_size", 2)}, 21);
              }),
              HasSubstr("block_size 2"));
}

TEST(QuantizeLinearNew, Float8SaturateAndInt2) {
  const Tensor big = Tensor::from<float>({1000, -1000});
  const Tensor zp8 = cast(Tensor::from<float>({0}, {}), DataType::kFloat8E4M3FN);
  Tensor y = run1("QuantizeLinear", {big, Tensor::scalar<float>(1.0f), zp8}, {}, 19);
  EXPECT_EQ(y.dtype(), DataType::kFloat8E4M3FN);
  EXPECT_THAT(values<float>(cast(y, DataType::kFloat)), ElementsAre(448, -448));
  y = run1("QuantizeLinear", {big, Tensor::scalar<float>(1.0f), zp8}, {A::make_int("saturate", 0)},
           19);
  EXPECT_TRUE(std::isnan(values<float>(cast(y, DataType::kFloat))[0]));
  // int2 (25) saturates to [-2, 1] after rounding half to even.
  y = run1("QuantizeLinear", {Tensor::from<float>({-3, 0.5f, 1.5f, 5}), Tensor::scalar<float>(1)},
           {A::make_int("output_dtype", static_cast<int64_t>(DataType::kInt2))}, 25);
  EXPECT_EQ(y.dtype(), DataType::kInt2);
  Tensor back = run1("DequantizeLinear", {y, Tensor::scalar<float>(1)}, {}, 25);
  EXPECT_THAT(values<float>(back), ElementsAre(-2, 0, 1, 1));
  EXPECT_THAT(error_of([&] {
                run1("QuantizeLinear", {big, Tensor::scalar<float>(1)},
                     {A::make_int("output_dtype", static_cast<int64_t>(DataType::kInt2))}, 24);
              }),
              HasSubstr("cannot output int2"));
}

TEST(DequantizeLinearNew, ScaleTypeOutputDtypeAndInt4Blocks) {
  // (2 - 1) * 0.5 with a float16 scale gives float16 (19); output_dtype (23)
  // picks the type.
  const Tensor x = Tensor::from<int8_t>({2, 5});
  const Tensor zp = Tensor::scalar<int8_t>(1);
  Tensor y = run1("DequantizeLinear",
                  {x, cast(Tensor::scalar<float>(0.5f), DataType::kFloat16), zp}, {}, 19);
  EXPECT_EQ(y.dtype(), DataType::kFloat16);
  EXPECT_THAT(values<float>(cast(y, DataType::kFloat)), ElementsAre(0.5f, 2));
  y = run1("DequantizeLinear", {x, Tensor::scalar<float>(0.5f), zp},
           {A::make_int("output_dtype", static_cast<int64_t>(DataType::kBfloat16))}, 23);
  EXPECT_EQ(y.dtype(), DataType::kBfloat16);
  // int4 x [-8, 7, 3] in blocks of 2 along axis 0: scales 1 and 10.
  const Tensor x4 = cast(Tensor::from<float>({-8, 7, 3}), DataType::kInt4);
  y = run1("DequantizeLinear", {x4, Tensor::from<float>({1, 10})},
           {A::make_int("axis", 0), A::make_int("block_size", 2)}, 21);
  EXPECT_THAT(values<float>(y), ElementsAre(-8, 7, 30));
}

TEST(QLinearMatMulNew, Float16Scales) {
  // acc = 2 * 4 = 8; 8 * 0.5 * 1 / 0.5 + 1 = 9.
  auto h = [](float v) { return cast(Tensor::from<float>({v}), DataType::kFloat16); };
  Tensor y = run1("QLinearMatMul",
                  {Tensor::from<uint8_t>({2}, {1, 1}), h(0.5f), Tensor::from<uint8_t>({0}),
                   Tensor::from<uint8_t>({4}, {1, 1}), h(1), Tensor::from<uint8_t>({0}), h(0.5f),
                   Tensor::from<uint8_t>({1})},
                  {}, 21);
  EXPECT_THAT(values<uint8_t>(y), ElementsAre(9));
}

}  // namespace
}  // namespace onnxscript::eval
