#pragma once
/// \file
/// 16-bit floating point storage types: IEEE half (float16) and bfloat16.
/// Arithmetic happens in float; these types only store, with round-to-nearest-even.

#include <bit>
#include <cstdint>

namespace onnxscript {

/// IEEE 754 binary16, stored as its bits.
struct float16 {
  uint16_t bits = 0;

  float16() = default;
  /// Rounds to nearest even; overflow gives infinity, NaN stays NaN.
  explicit float16(float value) : bits(from_float(value)) {}
  /// Exact widening.
  explicit operator float() const { return to_float(bits); }
  /// A float16 with the given bits.
  static float16 from_bits(uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }

  /// Converts float to binary16 bits with round-to-nearest-even.
  static uint16_t from_float(float value) {
    const uint32_t f = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (f >> 16) & 0x8000u;
    const uint32_t abs = f & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // Inf or NaN; keep NaN quiet and non-zero.
      return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0u));
    }
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to Inf
    if (abs < 0x38800000u) {  // result is subnormal or zero
      // Shift the (implicit-one) mantissa into place, rounding to nearest even.
      const uint32_t exp = abs >> 23;
      if (exp < 102) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
      const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
      const uint32_t shift = 126 - exp;  // 14..24
      uint32_t half = mant >> shift;
      const uint32_t rem = mant & ((1u << shift) - 1);
      const uint32_t halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (half & 1u))) ++half;
      return static_cast<uint16_t>(sign | half);
    }
    // Normal: rebias exponent (127 -> 15) and round the 13 dropped bits.
    uint32_t h = ((abs - 0x38000000u) >> 13);
    const uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }

  /// Converts binary16 bits to float exactly.
  static float to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    if (exp == 0) {
      // Zero or subnormal: mant * 2^-24.
      const float magnitude = static_cast<float>(mant) * 0x1p-24f;
      return sign ? -magnitude : magnitude;
    }
    if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

/// bfloat16: the top half of a float32, stored as its bits.
struct bfloat16 {
  uint16_t bits = 0;

  bfloat16() = default;
  /// Rounds to nearest even; NaN stays NaN.
  explicit bfloat16(float value) : bits(from_float(value)) {}
  /// Exact widening.
  explicit operator float() const { return to_float(bits); }
  /// A bfloat16 with the given bits.
  static bfloat16 from_bits(uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }

  /// Converts float to bfloat16 bits with round-to-nearest-even.
  static uint16_t from_float(float value) {
    const uint32_t f = std::bit_cast<uint32_t>(value);
    if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((f >> 16) | 0x40u);  // quiet NaN
    const uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
    return static_cast<uint16_t>((f + rounding) >> 16);
  }
  /// Converts bfloat16 bits to float exactly.
  static float to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }
};

}  // namespace onnxscript
