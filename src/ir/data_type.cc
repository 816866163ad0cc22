#include "onnxscript/ir/data_type.h"

#include <array>

namespace onnxscript::ir {
namespace {

struct DataTypeInfo {
  std::string_view name;
  int bits;
  int64_t min_ir_version;
};

// Indexed by the DataType value.
// clang-format off
constexpr std::array<DataTypeInfo, kMaxDataType + 1> kInfo = {{
    {"undefined", 0, 1},
    {"float", 32, 1},
    {"uint8", 8, 1},
    {"int8", 8, 1},
    {"uint16", 16, 1},
    {"int16", 16, 1},
    {"int32", 32, 1},
    {"int64", 64, 1},
    {"string", 0, 1},
    {"bool", 8, 1},
    {"float16", 16, 1},
    {"double", 64, 1},
    {"uint32", 32, 1},
    {"uint64", 64, 1},
    {"complex64", 64, 1},
    {"complex128", 128, 1},
    {"bfloat16", 16, 4},
    {"float8e4m3fn", 8, 9},
    {"float8e4m3fnuz", 8, 9},
    {"float8e5m2", 8, 9},
    {"float8e5m2fnuz", 8, 9},
    {"uint4", 4, 10},
    {"int4", 4, 10},
    {"float4e2m1", 4, 11},
    {"float8e8m0", 8, 12},
    {"uint2", 2, 13},
    {"int2", 2, 13},
}};
// clang-format on

const DataTypeInfo& info(DataType type) {
  auto index = static_cast<int32_t>(type);
  return kInfo[is_known_data_type(index) ? index : 0];
}

}  // namespace

int bit_width(DataType type) { return info(type).bits; }

size_t packed_byte_size(DataType type, int64_t count) {
  const auto bits = static_cast<size_t>(bit_width(type));
  return (static_cast<size_t>(count) * bits + 7) / 8;
}

std::string_view data_type_name(DataType type) { return info(type).name; }

std::optional<DataType> parse_data_type(std::string_view name) {
  for (int32_t i = 1; i <= kMaxDataType; ++i) {
    if (kInfo[i].name == name) return static_cast<DataType>(i);
  }
  return std::nullopt;
}

bool is_floating_point(DataType type) {
  switch (type) {
    case DataType::kFloat:
    case DataType::kDouble:
    case DataType::kFloat16:
    case DataType::kBfloat16:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat4E2M1:
    case DataType::kFloat8E8M0:
      return true;
    default:
      return false;
  }
}

bool is_signed_integer(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kInt4:
    case DataType::kInt2:
      return true;
    default:
      return false;
  }
}

bool is_integer(DataType type) {
  switch (type) {
    case DataType::kUint8:
    case DataType::kUint16:
    case DataType::kUint32:
    case DataType::kUint64:
    case DataType::kUint4:
    case DataType::kUint2:
      return true;
    default:
      return is_signed_integer(type);
  }
}

int64_t min_ir_version(DataType type) { return info(type).min_ir_version; }

bool is_sub_byte(DataType type) {
  const int bits = bit_width(type);
  return bits > 0 && bits < 8;
}

}  // namespace onnxscript::ir
