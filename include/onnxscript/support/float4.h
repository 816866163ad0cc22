#pragma once
/// \file
/// FLOAT4E2M1 (OCP MX FP4): 1 sign bit, 2 exponent bits with bias 1 and one
/// mantissa bit. Its sixteen values are +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}; there
/// are no infinities and no NaN. Stored two per byte like int4 (int4.h).

#include <bit>
#include <cstdint>

namespace onnxscript {

/// The magnitude of each 3-bit code.
inline constexpr float kFloat4E2M1Values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

/// The float of a FLOAT4E2M1 nibble (the low 4 bits of `bits`); exact.
constexpr float float4e2m1_to_float(uint8_t bits) {
  const float magnitude = kFloat4E2M1Values[bits & 0x7];
  return (bits & 0x8) ? -magnitude : magnitude;
}

/// `value` as a FLOAT4E2M1 nibble, as ONNX Cast gives it: rounded to nearest
/// even, saturated to +-6 (infinities too: the type has none). NaN gives
/// 0x8 (-0), what ONNX 1.22's reference implementation writes.
constexpr uint8_t float4e2m1_from_float(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint8_t>((bits >> 28) & 0x8u);
  const uint32_t abs_bits = bits & 0x7fffffffu;
  if (abs_bits > 0x7f800000u) return 0x8;
  const float a = std::bit_cast<float>(abs_bits);
  for (uint8_t code = 0; code < 7; ++code) {
    const float lo = kFloat4E2M1Values[code], hi = kFloat4E2M1Values[code + 1];
    if (a >= hi) continue;
    const float mid = (lo + hi) / 2;  // exact in float
    if (a < mid) return sign | code;
    if (a > mid) return sign | static_cast<uint8_t>(code + 1);
    return sign | static_cast<uint8_t>((code & 1) ? code + 1 : code);  // tie: even code
  }
  return sign | 0x7;
}

}  // namespace onnxscript
