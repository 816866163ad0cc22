// The element type table: names, widths, IR versions and classification,
// for the types added with IR 12 and 13 (float8e8m0, uint2, int2) beside the
// older sub-byte ones, and the packed storage of Tensor::ones.

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "onnxscript/ir/data_type.h"
#include "onnxscript/ir/tensor.h"

namespace onnxscript::ir {
namespace {

TEST(DataType, NewTypesHaveOnnxValuesNamesAndWidths) {
  EXPECT_EQ(static_cast<int32_t>(DataType::kFloat8E8M0), 24);
  EXPECT_EQ(static_cast<int32_t>(DataType::kUint2), 25);
  EXPECT_EQ(static_cast<int32_t>(DataType::kInt2), 26);
  EXPECT_EQ(kMaxDataType, 26);
  EXPECT_TRUE(is_known_data_type(26));
  EXPECT_FALSE(is_known_data_type(27));
  const struct {
    DataType type;
    const char* name;
    int bits;
    int64_t ir;
  } cases[] = {{DataType::kFloat8E8M0, "float8e8m0", 8, 12},
               {DataType::kUint2, "uint2", 2, 13},
               {DataType::kInt2, "int2", 2, 13},
               {DataType::kFloat4E2M1, "float4e2m1", 4, 11},
               {DataType::kInt4, "int4", 4, 10}};
  for (const auto& c : cases) {
    EXPECT_EQ(data_type_name(c.type), c.name);
    EXPECT_EQ(parse_data_type(c.name), c.type) << c.name;
    EXPECT_EQ(bit_width(c.type), c.bits) << c.name;
    EXPECT_EQ(min_ir_version(c.type), c.ir) << c.name;
    EXPECT_EQ(is_sub_byte(c.type), c.bits < 8) << c.name;
  }
  EXPECT_FALSE(is_sub_byte(DataType::kString));
  EXPECT_FALSE(is_sub_byte(DataType::kUndefined));
  EXPECT_TRUE(is_floating_point(DataType::kFloat8E8M0));
  EXPECT_FALSE(is_integer(DataType::kFloat8E8M0));
  EXPECT_TRUE(is_integer(DataType::kUint2));
  EXPECT_FALSE(is_signed_integer(DataType::kUint2));
  EXPECT_TRUE(is_signed_integer(DataType::kInt2));
  EXPECT_FALSE(is_floating_point(DataType::kInt2));
}

TEST(DataType, TwoBitTypesPackFourToAByte) {
  EXPECT_EQ(packed_byte_size(DataType::kInt2, 0), 0u);
  EXPECT_EQ(packed_byte_size(DataType::kInt2, 1), 1u);
  EXPECT_EQ(packed_byte_size(DataType::kUint2, 4), 1u);
  EXPECT_EQ(packed_byte_size(DataType::kUint2, 5), 2u);
  EXPECT_EQ(packed_byte_size(DataType::kFloat8E8M0, 5), 5u);
  EXPECT_EQ(Tensor(DataType::kInt2, {3, 3}).nbytes(), 3u);
}

TEST(DataType, OnesOfTheNewTypes) {
  auto bytes = [](const Tensor& t) {
    return std::string(static_cast<const char*>(t.raw_data()), t.nbytes());
  };
  EXPECT_EQ(bytes(Tensor::ones(DataType::kFloat8E8M0, {2})), std::string("\x7f\x7f", 2));
  // 1 in each crumb; the unused ones of the last byte stay zero.
  EXPECT_EQ(bytes(Tensor::ones(DataType::kInt2, {6})), std::string("\x55\x05", 2));
  EXPECT_EQ(bytes(Tensor::ones(DataType::kUint2, {4})), std::string("\x55", 1));
  EXPECT_EQ(bytes(Tensor::ones(DataType::kFloat4E2M1, {3})), std::string("\x22\x02", 2));
}

}  // namespace
}  // namespace onnxscript::ir
