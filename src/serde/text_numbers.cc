// Exact number <-> text conversions for the textual syntax. Floats print in
// the shortest form that reads back to the same bits; narrow float types
// (float16, bfloat16, float8, float4) print as the shortest decimal that rounds
// back to the same bit pattern, which is far easier to read than the bit
// patterns onnx.printer writes.

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "onnxscript/support/float8.h"
#include "text_internal.h"

namespace onnxscript::text::detail {
namespace {

enum class NanKind : uint8_t {
  kIeee,  // IEEE 754 layout: the top exponent holds infinities and NaNs.
  kFn,    // No infinities; exponent and mantissa all ones is NaN (float8e4m3fn).
  kUz,    // No infinities, no negative zero; the pattern "sign only" is NaN.
  kNone,  // No infinities and no NaN (float4e2m1).
  kE8M0,  // Exponent only, no sign, no zero; all ones is NaN (float8e8m0).
};

struct Format {
  int exp_bits;
  int man_bits;
  int bias;
  NanKind nan;
};

Format format_of(ir::DataType type) {
  using ir::DataType;
  switch (type) {
    case DataType::kFloat16:
      return {5, 10, 15, NanKind::kIeee};
    case DataType::kBfloat16:
      return {8, 7, 127, NanKind::kIeee};
    case DataType::kFloat8E4M3FN:
      return {4, 3, 7, NanKind::kFn};
    case DataType::kFloat8E4M3FNUZ:
      return {4, 3, 8, NanKind::kUz};
    case DataType::kFloat8E5M2:
      return {5, 2, 15, NanKind::kIeee};
    case DataType::kFloat8E5M2FNUZ:
      return {5, 2, 16, NanKind::kUz};
    case DataType::kFloat4E2M1:
      return {2, 1, 1, NanKind::kNone};
    case DataType::kFloat8E8M0:
      return {8, 0, 127, NanKind::kE8M0};
    default:
      return {0, 0, 0, NanKind::kNone};
  }
}

int width_of(const Format& f) {
  return (f.nan == NanKind::kE8M0 ? 0 : 1) + f.exp_bits + f.man_bits;
}

bool equals_lower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// Parses "nan(0xHEX)" (as the lexer accepted it); nullopt for other text.
std::optional<uint64_t> nan_bits(std::string_view text) {
  if (text.size() < 7 || !equals_lower(text.substr(0, 3), "nan") || text[3] != '(')
    return std::nullopt;
  const std::string_view hex = text.substr(6, text.size() - 7);
  uint64_t bits = 0;
  auto [ptr, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), bits, 16);
  if (ec != std::errc() || ptr != hex.data() + hex.size() || text.back() != ')')
    return std::nullopt;
  return bits;
}

enum class Special : uint8_t { kNone, kNan, kNegNan, kInf, kNegInf, kBits };

Special classify(std::string_view text) {
  bool neg = false;
  std::string_view word = text;
  if (!word.empty() && word[0] == '-') {
    neg = true;
    word.remove_prefix(1);
  }
  if (equals_lower(word, "nan")) return neg ? Special::kNegNan : Special::kNan;
  if (equals_lower(word, "inf") || equals_lower(word, "infinity"))
    return neg ? Special::kNegInf : Special::kInf;
  if (!neg && word.size() > 4 && equals_lower(word.substr(0, 4), "nan(")) return Special::kBits;
  return Special::kNone;
}

template <typename T>
void append_shortest(std::string& out, T v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, ptr);
}

void append_nan_bits(std::string& out, uint64_t bits, int hex_digits) {
  fmt::format_to(std::back_inserter(out), "nan(0x{:0{}x})", bits, hex_digits);
}

template <typename T>
std::optional<T> read_decimal(std::string_view text) {
  T v{};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

void append_float(std::string& out, float v) {
  if (std::isnan(v)) {
    const auto bits = std::bit_cast<uint32_t>(v);
    if (bits == 0x7FC00000u) {
      out += "nan";
    } else if (bits == 0xFFC00000u) {
      out += "-nan";
    } else {
      append_nan_bits(out, bits, 8);
    }
    return;
  }
  append_shortest(out, v);
}

void append_double(std::string& out, double v) {
  if (std::isnan(v)) {
    const auto bits = std::bit_cast<uint64_t>(v);
    if (bits == 0x7FF8000000000000ull) {
      out += "nan";
    } else if (bits == 0xFFF8000000000000ull) {
      out += "-nan";
    } else {
      append_nan_bits(out, bits, 16);
    }
    return;
  }
  append_shortest(out, v);
}

bool is_narrow_float(ir::DataType type) { return format_of(type).exp_bits != 0; }

float narrow_to_float(ir::DataType type, uint32_t bits) {
  const Format f = format_of(type);
  if (f.nan == NanKind::kE8M0) return float8_detail::decode_e8m0(static_cast<uint8_t>(bits));
  const uint32_t exp_max = (1u << f.exp_bits) - 1;
  const uint32_t man_max = (1u << f.man_bits) - 1;
  const bool negative = (bits >> (f.exp_bits + f.man_bits)) & 1u;
  const uint32_t e = (bits >> f.man_bits) & exp_max;
  const uint32_t m = bits & man_max;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  switch (f.nan) {
    case NanKind::kIeee:
      if (e == exp_max) {
        if (m != 0) return negative ? -nan : nan;
        return negative ? -std::numeric_limits<float>::infinity()
                        : std::numeric_limits<float>::infinity();
      }
      break;
    case NanKind::kFn:
      if (e == exp_max && m == man_max) return negative ? -nan : nan;
      break;
    case NanKind::kUz:
      if (negative && e == 0 && m == 0) return nan;
      break;
    case NanKind::kNone:
    case NanKind::kE8M0:  // handled above
      break;
  }
  float v = 0;
  if (e == 0) {
    v = std::ldexp(static_cast<float>(m), 1 - f.bias - f.man_bits);
  } else {
    v = std::ldexp(static_cast<float>(m + (1u << f.man_bits)),
                   static_cast<int>(e) - f.bias - f.man_bits);
  }
  return negative ? -v : v;
}

std::optional<uint32_t> float_to_narrow(ir::DataType type, double v) {
  const Format f = format_of(type);
  if (f.nan == NanKind::kE8M0) {
    // The nearest power of two (a tie, 1.5 * 2^e, goes up); there is no zero,
    // no sign and no infinity to give.
    if (std::isnan(v)) return 0xFFu;
    if (!(v > 0) || std::isinf(v)) return std::nullopt;
    int e2 = 0;
    const double m = std::frexp(v, &e2);  // v = m * 2^e2, m in [0.5, 1)
    int e = m >= 0.75 ? e2 : e2 - 1;
    e = std::max(e, -127);
    if (e > 127) return std::nullopt;
    return static_cast<uint32_t>(e + 127);
  }
  const uint32_t exp_max = (1u << f.exp_bits) - 1;
  const uint32_t man_max = (1u << f.man_bits) - 1;
  const uint32_t sign = std::signbit(v) ? 1u << (f.exp_bits + f.man_bits) : 0u;
  if (std::isnan(v)) {
    switch (f.nan) {
      case NanKind::kIeee:  // quiet NaN: top mantissa bit set
        return sign | (exp_max << f.man_bits) | (1u << (f.man_bits - 1));
      case NanKind::kFn:
        return sign | (exp_max << f.man_bits) | man_max;
      case NanKind::kUz:
        return 1u << (f.exp_bits + f.man_bits);
      case NanKind::kNone:
      case NanKind::kE8M0:  // handled above
        return std::nullopt;
    }
  }
  if (std::isinf(v)) {
    if (f.nan != NanKind::kIeee) return std::nullopt;
    return sign | (exp_max << f.man_bits);
  }
  const double a = std::fabs(v);
  if (a == 0) return f.nan == NanKind::kUz ? 0u : sign;
  const int emin = 1 - f.bias;
  int e2 = 0;
  std::frexp(a, &e2);
  int ex = std::max(e2 - 1, emin);
  // The mantissa as an integer at this exponent, rounded half to even.
  double n = std::nearbyint(std::ldexp(a, f.man_bits - ex));
  if (n >= std::ldexp(1.0, f.man_bits + 1)) {
    n = std::ldexp(1.0, f.man_bits);
    ++ex;
  }
  const auto mant_all = static_cast<uint32_t>(n);
  uint32_t e_field = 0;
  uint32_t m_field = mant_all;
  if (mant_all >= (1u << f.man_bits)) {
    e_field = static_cast<uint32_t>(ex + f.bias);
    m_field = mant_all - (1u << f.man_bits);
  }
  const uint32_t e_top = f.nan == NanKind::kIeee ? exp_max - 1 : exp_max;
  if (e_field > e_top) {
    if (f.nan == NanKind::kIeee) return sign | (exp_max << f.man_bits);
    return std::nullopt;
  }
  if (f.nan == NanKind::kFn && e_field == exp_max && m_field == man_max) return std::nullopt;
  if (e_field == 0 && m_field == 0 && f.nan == NanKind::kUz) return 0u;
  return sign | (e_field << f.man_bits) | m_field;
}

void append_narrow(std::string& out, ir::DataType type, uint32_t bits) {
  const Format f = format_of(type);
  const float v = narrow_to_float(type, bits);
  if (std::isnan(v)) {
    const auto canonical = float_to_narrow(type, v);
    if (canonical && *canonical == bits) {
      out += std::signbit(v) ? "-nan" : "nan";
    } else {
      append_nan_bits(out, bits, (width_of(f) + 3) / 4);
    }
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-inf" : "inf";
    return;
  }
  // Whole numbers print exactly ("448", not the shorter "450" that also
  // rounds back to 448 in float8e4m3fn): a reader takes digits at face value.
  if (std::fabs(v) < 16777216.0f && v == std::trunc(v)) {
    append_shortest(out, v);
    return;
  }
  // Otherwise the fewest significant digits that still round back to `bits`. The value
  // is then written in float's shortest form ("100", not "1e+02"), checked
  // again because that form may sit on the other side of a rounding boundary.
  char buf[64];
  for (int precision = 1; precision <= 9; ++precision) {
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v),
                           std::chars_format::general, precision);
    const std::string_view candidate(buf, static_cast<size_t>(r.ptr - buf));
    const auto d = read_decimal<double>(candidate);
    if (!d || float_to_narrow(type, *d) != bits) continue;
    char tidy[64];
    auto t = std::to_chars(tidy, tidy + sizeof tidy, static_cast<float>(*d));
    const std::string_view tidy_text(tidy, static_cast<size_t>(t.ptr - tidy));
    const auto back = read_decimal<double>(tidy_text);
    out.append(back && float_to_narrow(type, *back) == bits ? tidy_text : candidate);
    return;
  }
  append_shortest(out, v);  // unreachable: 9 digits identify every float
}

const std::vector<std::string>& narrow_table(ir::DataType type) {
  auto build = [](ir::DataType t) {
    std::vector<std::string> table(size_t{1} << width_of(format_of(t)));
    for (size_t bits = 0; bits < table.size(); ++bits)
      append_narrow(table[bits], t, static_cast<uint32_t>(bits));
    return table;
  };
  using ir::DataType;
  // One table per type, built on first use (thread-safe static initialisation).
  switch (type) {
    case DataType::kFloat16: {
      static const auto table = build(DataType::kFloat16);
      return table;
    }
    case DataType::kBfloat16: {
      static const auto table = build(DataType::kBfloat16);
      return table;
    }
    case DataType::kFloat8E4M3FN: {
      static const auto table = build(DataType::kFloat8E4M3FN);
      return table;
    }
    case DataType::kFloat8E4M3FNUZ: {
      static const auto table = build(DataType::kFloat8E4M3FNUZ);
      return table;
    }
    case DataType::kFloat8E5M2: {
      static const auto table = build(DataType::kFloat8E5M2);
      return table;
    }
    case DataType::kFloat8E5M2FNUZ: {
      static const auto table = build(DataType::kFloat8E5M2FNUZ);
      return table;
    }
    case DataType::kFloat8E8M0: {
      static const auto table = build(DataType::kFloat8E8M0);
      return table;
    }
    default: {
      static const auto table = build(DataType::kFloat4E2M1);
      return table;
    }
  }
}

std::optional<float> read_float(std::string_view text) {
  switch (classify(text)) {
    case Special::kNan:
      return std::bit_cast<float>(0x7FC00000u);
    case Special::kNegNan:
      return std::bit_cast<float>(0xFFC00000u);
    case Special::kInf:
      return std::numeric_limits<float>::infinity();
    case Special::kNegInf:
      return -std::numeric_limits<float>::infinity();
    case Special::kBits: {
      const auto bits = nan_bits(text);
      if (!bits || *bits > 0xFFFFFFFFu) return std::nullopt;
      const float v = std::bit_cast<float>(static_cast<uint32_t>(*bits));
      if (!std::isnan(v)) return std::nullopt;
      return v;
    }
    case Special::kNone:
      break;
  }
  return read_decimal<float>(text);
}

std::optional<double> read_double(std::string_view text) {
  switch (classify(text)) {
    case Special::kNan:
      return std::bit_cast<double>(0x7FF8000000000000ull);
    case Special::kNegNan:
      return std::bit_cast<double>(0xFFF8000000000000ull);
    case Special::kInf:
      return std::numeric_limits<double>::infinity();
    case Special::kNegInf:
      return -std::numeric_limits<double>::infinity();
    case Special::kBits: {
      const auto bits = nan_bits(text);
      if (!bits) return std::nullopt;
      const double v = std::bit_cast<double>(*bits);
      if (!std::isnan(v)) return std::nullopt;
      return v;
    }
    case Special::kNone:
      break;
  }
  return read_decimal<double>(text);
}

std::optional<uint32_t> read_narrow(ir::DataType type, std::string_view text) {
  const Format f = format_of(type);
  switch (classify(text)) {
    case Special::kNan:
      return float_to_narrow(type, std::numeric_limits<double>::quiet_NaN());
    case Special::kNegNan:
      return float_to_narrow(type, -std::numeric_limits<double>::quiet_NaN());
    case Special::kBits: {
      const auto bits = nan_bits(text);
      if (!bits || *bits >= (1ull << width_of(f))) return std::nullopt;
      const auto b = static_cast<uint32_t>(*bits);
      if (!std::isnan(narrow_to_float(type, b))) return std::nullopt;
      return b;
    }
    default:
      break;
  }
  const auto d = read_double(text);
  if (!d) return std::nullopt;
  return float_to_narrow(type, *d);
}

}  // namespace onnxscript::text::detail
