#pragma once
/// \file
/// Helpers for the packed sub-byte integer types: ONNX INT4 and UINT4, two
/// elements per byte, element 2k in the low nibble of byte k and element
/// 2k+1 in the high nibble; and INT2 and UINT2, four per byte, element 4k+j
/// in bits 2j and 2j+1 of byte k. This is the ONNX raw_data layout (the
/// first element in the lowest bits). Bits past the last element are zero.

#include <cmath>
#include <cstdint>

namespace onnxscript {

/// Element `i` of a packed int4 array, sign-extended to [-8, 7].
inline int8_t int4_get(const uint8_t* packed, int64_t i) {
  const uint8_t nibble = (packed[i >> 1] >> ((i & 1) * 4)) & 0x0f;
  return static_cast<int8_t>((nibble ^ 0x08) - 0x08);  // sign-extend bit 3
}

/// Element `i` of a packed uint4 array, in [0, 15].
inline uint8_t uint4_get(const uint8_t* packed, int64_t i) {
  return (packed[i >> 1] >> ((i & 1) * 4)) & 0x0f;
}

/// Stores the low 4 bits of `value` as element `i`, leaving the other nibble.
inline void nibble_set(uint8_t* packed, int64_t i, int value) {
  const int shift = static_cast<int>(i & 1) * 4;
  uint8_t& byte = packed[i >> 1];
  byte = static_cast<uint8_t>((byte & ~(0x0f << shift)) | ((value & 0x0f) << shift));
}

/// Element `i` of a packed int2 array, sign-extended to [-2, 1].
inline int8_t int2_get(const uint8_t* packed, int64_t i) {
  const uint8_t crumb = (packed[i >> 2] >> ((i & 3) * 2)) & 0x03;
  return static_cast<int8_t>((crumb ^ 0x02) - 0x02);  // sign-extend bit 1
}

/// Element `i` of a packed uint2 array, in [0, 3].
inline uint8_t uint2_get(const uint8_t* packed, int64_t i) {
  return (packed[i >> 2] >> ((i & 3) * 2)) & 0x03;
}

/// Stores the low 2 bits of `value` as element `i`, leaving the other three.
inline void crumb_set(uint8_t* packed, int64_t i, int value) {
  const int shift = static_cast<int>(i & 3) * 2;
  uint8_t& byte = packed[i >> 2];
  byte = static_cast<uint8_t>((byte & ~(0x03 << shift)) | ((value & 0x03) << shift));
}

/// A value converted to int2 or uint2 as ONNX Cast-25 does: rounded half to
/// even, then wrapped (its low two bits kept: 2 -> -2 for int2, -1 -> 3 for
/// uint2). NaN and infinities, undefined in ONNX, give 0. The result is the
/// 2-bit pattern, to store with crumb_set.
inline int int2_from_double(double x) {
  if (!std::isfinite(x)) return 0;
  const double r = std::nearbyint(std::fmod(x, 4.0));  // exact; keeps the low bits
  return static_cast<int>(static_cast<int64_t>(r)) & 0x03;
}

/// A value converted to int4 (`is_signed`, range [-8, 7]) or uint4 ([0, 15])
/// as ONNX Cast does: clamped to the range, then rounded half to even. NaN
/// gives 0.
inline int int4_from_double(double x, bool is_signed) {
  if (std::isnan(x)) return 0;
  const double lo = is_signed ? -8.0 : 0.0, hi = is_signed ? 7.0 : 15.0;
  x = x < lo ? lo : (x > hi ? hi : x);
  return static_cast<int>(std::nearbyint(x));
}

/// An integer converted to int4 or uint4 by clamping to the range (what the
/// float path gives for integers, without a detour through double).
inline int int4_from_int(int64_t x, bool is_signed) {
  const int64_t lo = is_signed ? -8 : 0, hi = is_signed ? 7 : 15;
  return static_cast<int>(x < lo ? lo : (x > hi ? hi : x));
}

}  // namespace onnxscript
