#pragma once
/// \file
/// ONNX tensor element types. The numeric values are those of
/// TensorProto.DataType in the ONNX specification, so they pass through the
/// wire format unchanged.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxscript::ir {

/// An ONNX element type; values match TensorProto.DataType.
enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUint2 = 25,
  kInt2 = 26,
};

/// The largest element type value this build knows.
inline constexpr int32_t kMaxDataType = 26;

/// True when `value` names an element type this build knows (excluding kUndefined).
constexpr bool is_known_data_type(int32_t value) { return value >= 1 && value <= kMaxDataType; }

/// Bits one element occupies in ONNX raw_data: 4 for int4/uint4/float4, 2 for
/// int2/uint2, 0 for strings (which have no fixed width) and kUndefined.
int bit_width(DataType type);

/// Bytes that `count` packed elements occupy in raw_data (rounded up for the
/// sub-byte types: two 4-bit or four 2-bit elements per byte).
size_t packed_byte_size(DataType type, int64_t count);

/// The name ONNX's textual syntax uses: "float", "int64", "float8e4m3fn", ...
std::string_view data_type_name(DataType type);

/// Inverse of data_type_name; nullopt for an unknown name.
std::optional<DataType> parse_data_type(std::string_view name);

/// True for the floating point types, including float16, bfloat16, float8
/// (float8e8m0 too) and float4.
bool is_floating_point(DataType type);

/// True for signed and unsigned integer types, including int4/uint4 and
/// int2/uint2 (not bool).
bool is_integer(DataType type);

/// True for the signed integer types.
bool is_signed_integer(DataType type);

/// The first IR version that can store this element type (e.g. 9 for float8,
/// 10 for int4, 11 for float4e2m1, 12 for float8e8m0, 13 for int2/uint2).
int64_t min_ir_version(DataType type);

/// True for the types stored several to a byte (bit_width below 8): int4,
/// uint4, float4e2m1, int2, uint2. Element i sits in byte i * bits / 8, at
/// bit (i * bits) % 8: the first element in the lowest bits.
bool is_sub_byte(DataType type);

}  // namespace onnxscript::ir
