#pragma once
/// \file
/// 8-bit floating point storage types (ONNX FLOAT8E4M3FN, FLOAT8E4M3FNUZ,
/// FLOAT8E5M2, FLOAT8E5M2FNUZ, and FLOAT8E8M0 at the end of this file) and
/// their conversions to and from float.
///
/// The formats:
///
/// | type     | exponent/mantissa bits | bias | infinities | NaN              | -0 | max    |
/// |----------|------------------------|------|------------|------------------|----|--------|
/// | E4M3FN   | 4 / 3                  | 7    | none       | S.1111.111       | yes| 448    |
/// | E4M3FNUZ | 4 / 3                  | 8    | none       | 0x80 only        | no | 240    |
/// | E5M2     | 5 / 2                  | 15   | S.11111.00 | S.11111.{01..11} | yes| 57344  |
/// | E5M2FNUZ | 5 / 2                  | 16   | none       | 0x80 only        | no | 57344  |
///
/// Conversion from float rounds to nearest even ("RNE") and follows the ONNX
/// Cast specification for everything else:
/// - `saturate` (the default): values whose rounding exceeds the largest
///   finite value, and infinities, become +-max.
/// - not saturating: such values become NaN, or +-inf for E5M2.
/// - NaN stays NaN. The "UZ" types have no -0: negative values that round to
///   zero give +0.

#include <bit>
#include <cstdint>

namespace onnxscript {

namespace float8_detail {

/// Layout of one 8-bit float format.
struct Format {
  int mantissa_bits;   ///< 3 or 2.
  int bias;            ///< Exponent bias.
  bool has_inf;        ///< E5M2 only.
  bool unsigned_zero;  ///< The FNUZ formats: 0x80 is NaN, there is no -0.
  uint8_t max_bits;    ///< Encoding of the largest finite value (without sign).
};

inline constexpr Format kE4M3FN{3, 7, false, false, 0x7e};
inline constexpr Format kE4M3FNUZ{3, 8, false, true, 0x7f};
inline constexpr Format kE5M2{2, 15, true, false, 0x7b};
inline constexpr Format kE5M2FNUZ{2, 16, false, true, 0x7f};

/// Encodes `value` in format `f` (see the file comment for the rules).
constexpr uint8_t encode(float value, const Format& f, bool saturate) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80u);
  const uint32_t abs = bits & 0x7fffffffu;
  const uint8_t nan = f.unsigned_zero ? uint8_t{0x80} : static_cast<uint8_t>(sign | 0x7f);
  if (abs > 0x7f800000u) return nan;
  const uint8_t overflow = saturate ? static_cast<uint8_t>(sign | f.max_bits)
                                    : (f.has_inf ? static_cast<uint8_t>(sign | 0x7c) : nan);
  if (abs == 0x7f800000u) return overflow;
  // Float subnormals (and zeros) are far below the smallest 8-bit subnormal.
  const int exp = static_cast<int>(abs >> 23) - 127;  // unbiased exponent of value
  uint32_t result = 0;
  if (abs >= 0x00800000u) {
    const int min_exp = 1 - f.bias;  // exponent of the smallest normal
    if (exp > 16) return overflow;   // beyond every format's range; avoids shift overflow
    const uint32_t significand = (abs & 0x7fffffu) | 0x800000u;  // 24 bits, 1.xxx
    // Bits of the significand to drop: 23 - mantissa for normals, more for
    // results that land in the subnormal range.
    const int shift = 23 - f.mantissa_bits + (exp < min_exp ? min_exp - exp : 0);
    if (shift < 32) {
      uint32_t n = significand >> shift;
      const uint32_t rest = significand & ((1u << shift) - 1);
      const uint32_t half = 1u << (shift - 1);
      if (rest > half || (rest == half && (n & 1u))) ++n;
      // n counts units of the result's quantum. For a normal result the
      // encoding is ((biased exponent - 1) << mantissa) + n, which also carries
      // a mantissa overflow into the exponent; for a subnormal it is n itself
      // (and n == 1 << mantissa is exactly the smallest normal).
      result = exp < min_exp ? n : (static_cast<uint32_t>(exp + f.bias - 1) << f.mantissa_bits) + n;
    }
  }
  if (result > f.max_bits) return overflow;
  if (result == 0 && f.unsigned_zero) return 0;
  return static_cast<uint8_t>(sign | result);
}

/// Decodes bits of format `f` to float (exact).
constexpr float decode(uint8_t bits, const Format& f) {
  const bool negative = (bits & 0x80u) != 0;
  const uint32_t abs = bits & 0x7fu;
  const int exp_bits = 7 - f.mantissa_bits;
  const uint32_t exp_field = abs >> f.mantissa_bits;
  const uint32_t mantissa = abs & ((1u << f.mantissa_bits) - 1);
  if (f.unsigned_zero) {
    if (bits == 0x80) return std::bit_cast<float>(0x7fc00000u);
  } else if (f.has_inf) {
    if (exp_field == (1u << exp_bits) - 1) {
      const uint32_t special = mantissa == 0 ? 0x7f800000u : 0x7fc00000u;
      return std::bit_cast<float>(special | (negative ? 0x80000000u : 0u));
    }
  } else if (abs == 0x7f) {
    return std::bit_cast<float>(0x7fc00000u | (negative ? 0x80000000u : 0u));
  }
  float magnitude;
  if (exp_field == 0) {
    // Subnormal: mantissa * 2^(1 - bias - mantissa_bits).
    magnitude =
        static_cast<float>(mantissa) *
        std::bit_cast<float>(static_cast<uint32_t>(127 + 1 - f.bias - f.mantissa_bits) << 23);
  } else {
    const uint32_t fbits =
        (static_cast<uint32_t>(static_cast<int>(exp_field) - f.bias + 127) << 23) |
        (mantissa << (23 - f.mantissa_bits));
    magnitude = std::bit_cast<float>(fbits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace float8_detail

/// An 8-bit float of format F, stored as its bits. Arithmetic happens in float.
template <const float8_detail::Format& F>
struct Float8 {
  uint8_t bits = 0;

  Float8() = default;
  /// Rounds to nearest even; see the file comment for saturation and specials.
  explicit constexpr Float8(float value, bool saturate = true)
      : bits(float8_detail::encode(value, F, saturate)) {}
  /// Exact widening.
  explicit constexpr operator float() const { return float8_detail::decode(bits, F); }
  /// The value with the given bits.
  static constexpr Float8 from_bits(uint8_t b) {
    Float8 v;
    v.bits = b;
    return v;
  }
};

/// FLOAT8E4M3FN: 4 exponent bits, 3 mantissa bits, no infinities, max 448.
using float8e4m3fn = Float8<float8_detail::kE4M3FN>;
/// FLOAT8E4M3FNUZ: like E4M3FN with bias 8, no -0, NaN is 0x80, max 240.
using float8e4m3fnuz = Float8<float8_detail::kE4M3FNUZ>;
/// FLOAT8E5M2: the top byte of an IEEE half: infinities and NaNs, max 57344.
using float8e5m2 = Float8<float8_detail::kE5M2>;
/// FLOAT8E5M2FNUZ: 5 exponent bits with bias 16, no infinities or -0, NaN is 0x80.
using float8e5m2fnuz = Float8<float8_detail::kE5M2FNUZ>;

/// How Cast rounds to float8e8m0 (its `round_mode` attribute, Cast-24 on).
enum class E8M0Round : uint8_t {
  kUp,       ///< "up", the default: to the power of two at or above |x|.
  kDown,     ///< "down": to the power of two at or below |x|.
  kNearest,  ///< "nearest": to the nearer power of two; a tie (1.5 * 2^e) goes up.
};

namespace float8_detail {

/// Encodes `value` as FLOAT8E8M0: an unsigned biased exponent only (bias 127),
/// value 2^(bits - 127), 0xFF is NaN; there is no zero and no sign, so the
/// sign of `value` is ignored and values at or below 2^-127 (zero too) give
/// 0x00. NaN gives 0xFF; infinities and values that round past 2^127 give
/// 0xFE when saturating, NaN otherwise.
constexpr uint8_t encode_e8m0(float value, bool saturate, E8M0Round mode) {
  const uint32_t abs = std::bit_cast<uint32_t>(value) & 0x7fffffffu;
  if (abs > 0x7f800000u) return 0xff;
  const uint8_t overflow = saturate ? 0xfe : 0xff;
  if (abs == 0x7f800000u) return overflow;
  const uint32_t exp = abs >> 23;
  const uint32_t mantissa = abs & 0x7fffffu;
  if (exp == 0) {
    // A float subnormal is mantissa * 2^-149: 2^-127 (code 0) is 0x400000,
    // 2^-126 (code 1) the smallest normal.
    switch (mode) {
      case E8M0Round::kUp:
        return mantissa > 0x400000u ? 1 : 0;
      case E8M0Round::kDown:
        return 0;
      case E8M0Round::kNearest:
        return mantissa >= 0x600000u ? 1 : 0;
    }
  }
  // A normal float is 2^(exp - 127) * (1 + mantissa / 2^23): code `exp` is
  // the power of two below it, `exp + 1` the one above.
  uint32_t code = exp;
  if (mantissa != 0 &&
      (mode == E8M0Round::kUp || (mode == E8M0Round::kNearest && mantissa >= 0x400000u)))
    ++code;
  if (code > 0xfe) return overflow;
  return static_cast<uint8_t>(code);
}

/// Decodes FLOAT8E8M0 bits (exact: every code but NaN is a float).
constexpr float decode_e8m0(uint8_t bits) {
  if (bits == 0xff) return std::bit_cast<float>(0x7fc00000u);
  if (bits == 0) return std::bit_cast<float>(0x00400000u);  // 2^-127, a float subnormal
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 23);
}

}  // namespace float8_detail

/// FLOAT8E8M0 (OCP MX scale): a power of two 2^(bits - 127), no sign, no zero,
/// 0xFF is NaN. Arithmetic happens in float.
struct float8e8m0 {
  uint8_t bits = 0;

  float8e8m0() = default;
  /// Rounds as Cast's `round_mode` says (see float8_detail::encode_e8m0).
  explicit constexpr float8e8m0(float value, bool saturate = true, E8M0Round mode = E8M0Round::kUp)
      : bits(float8_detail::encode_e8m0(value, saturate, mode)) {}
  /// Exact widening.
  explicit constexpr operator float() const { return float8_detail::decode_e8m0(bits); }
  /// The value with the given bits.
  static constexpr float8e8m0 from_bits(uint8_t b) {
    float8e8m0 v;
    v.bits = b;
    return v;
  }
};

}  // namespace onnxscript
