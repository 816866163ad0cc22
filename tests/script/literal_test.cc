// Literals becoming tensors: the one conversion operator calls and control
// flow share (src/script/literal.h).
#include "script/literal.h"

#include <cstdint>

#include <gtest/gtest.h>

#include "onnxscript/support/error.h"

namespace onnxscript::detail {
namespace {

TEST(LiteralTensor, EachLiteralKindHasItsDefaultType) {
  EXPECT_EQ(default_literal_type(Value(int64_t{3})), DataType::kInt64);
  EXPECT_EQ(default_literal_type(Value(true)), DataType::kBool);
  EXPECT_EQ(default_literal_type(Value(0.5)), DataType::kFloat);
}

TEST(LiteralTensor, CommonTypesConvertDirectly) {
  const Tensor f = literal_tensor(Value(0.5), DataType::kFloat16);
  ASSERT_EQ(f.dtype(), DataType::kFloat16);
  EXPECT_TRUE(f.shape().empty());
  EXPECT_EQ(static_cast<float>(f.data<float16>()[0]), 0.5f);
  // An int64 comes from the integer, not through a double, which would round it.
  const int64_t big = (int64_t{1} << 62) + 1;
  EXPECT_EQ(literal_tensor(Value(big), DataType::kInt64).data<int64_t>()[0], big);
}

TEST(LiteralTensor, NarrowTypesGoThroughCast) {
  // 0.5 in float8 e4m3fn: sign 0, exponent 6 (bias 7), mantissa 0.
  const Tensor t = literal_tensor(Value(0.5), DataType::kFloat8E4M3FN);
  ASSERT_EQ(t.dtype(), DataType::kFloat8E4M3FN);
  ASSERT_EQ(t.nbytes(), 1u);
  EXPECT_EQ(static_cast<uint8_t>(t.bytes()[0]), 0x30);
}

TEST(LiteralTensor, ATypeWithoutANumericConversionIsATypeError) {
  EXPECT_THROW(literal_tensor(Value(0.5), DataType::kString), TypeError);
  EXPECT_THROW(literal_tensor(Value(int64_t{1}), DataType::kComplex64), TypeError);
}

}  // namespace
}  // namespace onnxscript::detail
