// Cast: converts every element to the type named by the `to` attribute.
// Versions: 1 (`to` was a string in the very first spec; here an int),
// 6, 9 (adds string), 13 (adds bfloat16), 19 (float8 types and `saturate`),
// 21 (int4/uint4). The conversions also cover the types of later versions:
// float4e2m1 (23), float8e8m0 and `round_mode` (24), int2/uint2 (25). The
// rules:
// - integer -> integer wraps (keeps the low bits, two's complement);
// - float -> integer truncates toward zero; NaN, infinities and values out of
//   int64's range are undefined in ONNX and give int64's minimum wrapped to
//   the target (what x86 conversion instructions, hence numpy, give);
// - float -> narrower float rounds to nearest even, once (double -> float16
//   does not round twice through float);
// - anything -> bool is "not zero" (NaN is true); bool -> number is 0 or 1;
// - float8: see support/float8.h (`saturate`, default 1, clamps overflow);
// - int4/uint4: clamp to the range, then round half to even (ONNX's rule);
// - int2/uint2: round half to even, then wrap (keep the low two bits), as
//   ONNX 1.22's test cases for Cast-25 expect (-3 -> 1 for int2);
// - float4e2m1: round to nearest even, saturate to +-6 (there is no inf or
//   NaN; NaN gives -0 as ONNX's reference does); see support/float4.h;
// - float8e8m0: a power of two chosen by `round_mode` ("up" by default,
//   "down", "nearest"), sign ignored; `saturate` clamps overflow and
//   infinities to 2^127, else they give NaN; see support/float8.h;
// - number -> string: integers in decimal, floats in numpy's shortest
//   round-trip form ("0.1", "1e-05", "1.5e+16", "100.0"), bool as
//   "True"/"False" (numpy's str), and "NaN", "INF", "-INF";
// - string -> number: decimal or scientific text with optional sign and
//   surrounding spaces; "inf", "+INF", "-Infinity", "NaN" in any case.
//   Integer targets accept "100.5" (giving 100); "True"/"False" (what bool
//   -> string writes) read as 1 and 0. Other text is an error.
#include "eval/kernels/cast/cast.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

#include "eval/util/elementwise.h"
#include "onnxscript/support/float4.h"
#include "onnxscript/support/float8.h"
#include "onnxscript/support/int4.h"

namespace onnxscript::eval {
namespace {

using kNativeTypes =
    TypeList<DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
             DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64,
             DataType::kUint8, DataType::kUint16, DataType::kUint32, DataType::kUint64,
             DataType::kBool>;

template <typename T>
constexpr bool is_float_v = std::is_floating_point_v<T> || is_half_v<T>;

// ---- double -> 16-bit float with one rounding --------------------------------

// d rounded to float "to odd": truncated, with the last bit set when inexact.
// A value rounded to odd at float precision and then to nearest even at half
// or bfloat16 precision is rounded correctly, because float keeps more than
// two extra bits (a plain double -> float -> half can round twice).
float round_to_odd_float(double d) {
  float f = static_cast<float>(d);
  if (!std::isfinite(f) || static_cast<double>(f) == d) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  return std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
}

template <typename H>
H half_from_double(double d) {
  return H(round_to_odd_float(d));
}

// ---- native conversions --------------------------------------------------------

template <typename D, typename S>
D convert(const S& s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (std::is_same_v<D, bool>) {
    if constexpr (is_half_v<S>)
      return static_cast<float>(s) != 0.0f;
    else
      return s != S(0);
  } else if constexpr (std::is_same_v<S, bool>) {
    if constexpr (is_half_v<D>)
      return D(s ? 1.0f : 0.0f);
    else
      return static_cast<D>(s ? 1 : 0);
  } else if constexpr (std::is_integral_v<D>) {
    if constexpr (std::is_integral_v<S>)
      return static_cast<D>(s);  // modular since C++20
    else if constexpr (is_half_v<S>)
      return float_to_int<D>(static_cast<float>(s));
    else
      return float_to_int<D>(s);
  } else if constexpr (std::is_floating_point_v<D>) {
    if constexpr (is_half_v<S>)
      return static_cast<D>(static_cast<float>(s));
    else
      return static_cast<D>(s);
  } else {  // D is float16 or bfloat16
    if constexpr (std::is_same_v<S, float>)
      return D(s);
    else if constexpr (is_half_v<S>)
      return D(static_cast<float>(s));
    else
      return half_from_double<D>(static_cast<double>(s));
  }
}

// ---- number -> string ------------------------------------------------------

// numpy's layout of a shortest round-trip number given as its significant
// digits and decimal exponent (value = d.ddd x 10^exp): positional (with
// ".0" on integers) or scientific. numpy picks positional for
// 1e-4 <= |x| < 1e16 judged on the value itself, so float32(1e-4), which is
// slightly below 1e-4, prints as "1e-04".
std::string layout_number(bool negative, std::string_view digits, int exp, bool positional) {
  std::string out = negative ? "-" : "";
  const int n = static_cast<int>(digits.size());
  if (positional) {
    if (exp >= n - 1) {
      out.append(digits).append(static_cast<size_t>(exp - (n - 1)), '0').append(".0");
    } else if (exp >= 0) {
      out.append(digits.substr(0, exp + 1)).append(".").append(digits.substr(exp + 1));
    } else {
      out.append("0.").append(static_cast<size_t>(-exp - 1), '0').append(digits);
    }
  } else {
    out.push_back(digits[0]);
    if (n > 1) out.append(".").append(digits.substr(1));
    out.append(fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp)));
  }
  return out;
}

// Splits to_chars' scientific output "-1.2345e+06" into layout_number's parts.
std::string relayout_scientific(std::string_view s, bool positional) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  const size_t e = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e))
    if (c != '.') digits.push_back(c);
  // Trailing zeros carry no information ("1.50e+00" -> "15").
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exp = 0;
  std::string_view es = s.substr(e + 1);
  if (!es.empty() && es[0] == '+') es.remove_prefix(1);
  std::from_chars(es.data(), es.data() + es.size(), exp);
  return layout_number(negative, digits, exp, positional);
}

template <typename F>
std::string float_to_string(F v) {
  const double d = static_cast<double>(static_cast<arith_t<F>>(v));
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d < 0 ? "-INF" : "INF";
  const double mag = std::fabs(d);
  const bool positional = mag == 0 || (mag >= 1e-4 && mag < 1e16);
  char buf[64];
  if constexpr (std::is_floating_point_v<F>) {
    // No precision: the shortest digits that read back as the same value.
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    return relayout_scientific(std::string_view(buf, r.ptr - buf), positional);
  } else {
    // float16/bfloat16: to_chars knows no such types, so try 1, 2, ...
    // significant digits until the text reads back as the same bits.
    for (int precision = 0; precision < 9; ++precision) {
      auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, precision);
      double back = 0;
      std::from_chars(buf, r.ptr, back);
      if (half_from_double<F>(back).bits == v.bits)
        return relayout_scientific(std::string_view(buf, r.ptr - buf), positional);
    }
    auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    return relayout_scientific(std::string_view(buf, r.ptr - buf), positional);
  }
}

template <typename S>
std::string to_string_value(const S& v) {
  if constexpr (std::is_same_v<S, bool>) {
    return v ? "True" : "False";
  } else if constexpr (std::is_integral_v<S>) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  } else {
    return float_to_string(v);
  }
}

// ---- string -> number ------------------------------------------------------

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Parses a float of type F (float or double); false when `text` is not one.
template <typename F>
bool parse_float(std::string_view text, F& out) {
  std::string_view s = trim(text);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (iequals(s, "inf") || iequals(s, "infinity")) {
    out = std::numeric_limits<F>::infinity();
  } else if (iequals(s, "nan")) {
    out = std::numeric_limits<F>::quiet_NaN();
  } else if (iequals(s, "true") || iequals(s, "false")) {
    // What bool -> string writes reads back as 1 or 0.
    out = iequals(s, "true") ? F(1) : F(0);
  } else {
    if (s.empty() || s[0] == '+' || s[0] == '-') return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    // Out-of-range text gives an infinity (or zero), as strtod does.
    if (r.ec == std::errc::result_out_of_range) {
      const size_t e = s.find_first_of("eE");
      const bool tiny = e != std::string_view::npos && s.find('-', e) != std::string_view::npos;
      out = tiny ? F(0) : std::numeric_limits<F>::infinity();
    } else if (r.ec != std::errc() || r.ptr != s.data() + s.size()) {
      return false;
    }
  }
  if (negative) out = -out;
  return true;
}

template <typename D>
D parse_string(const KernelContext& ctx, const std::string& text) {
  auto bad = [&]() -> D {
    ctx.fail(fmt::format("cannot convert the string \"{}\" to {}", text,
                         ir::data_type_name(ir::data_type_of<D>())));
  };
  if constexpr (std::is_same_v<D, bool>) {
    std::string_view s = trim(text);
    if (iequals(s, "true")) return true;
    if (iequals(s, "false")) return false;
    double v = 0;
    if (!parse_float(s, v)) return bad();
    return v != 0;
  } else if constexpr (std::is_integral_v<D>) {
    std::string_view s = trim(text);
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (std::is_unsigned_v<D> && (s.empty() || s[0] != '-')) {
      uint64_t u = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), u);
      if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return static_cast<D>(u);
    } else {
      int64_t i = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), i);
      if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return static_cast<D>(i);
    }
    double v = 0;
    if (!parse_float(text, v)) return bad();
    return float_to_int<D>(v);
  } else if constexpr (std::is_floating_point_v<D>) {
    D v{};
    if (!parse_float(text, v)) return bad();
    return v;
  } else {  // float16 / bfloat16: parse exactly as double, then round once
    double v = 0;
    if (!parse_float(text, v)) return bad();
    return half_from_double<D>(v);
  }
}

// ---- the loops ---------------------------------------------------------------

bool is_float8(DataType t) {
  return t == DataType::kFloat8E4M3FN || t == DataType::kFloat8E4M3FNUZ ||
         t == DataType::kFloat8E5M2 || t == DataType::kFloat8E5M2FNUZ;
}
bool is_int4(DataType t) { return t == DataType::kInt4 || t == DataType::kUint4; }
bool is_int2(DataType t) { return t == DataType::kInt2 || t == DataType::kUint2; }
// Types without a C++ arithmetic type here: stored as bits, converted through
// float (the float types) or int8/uint8 (the sub-byte integers).
bool is_packed(DataType t) {
  return is_float8(t) || t == DataType::kFloat8E8M0 || t == DataType::kFloat4E2M1 || is_int4(t) ||
         is_int2(t);
}

// Calls f.template operator()<F8>() with the float8 type of `t`.
template <typename F>
void dispatch_float8(DataType t, F&& f) {
  switch (t) {
    case DataType::kFloat8E4M3FN:
      return f.template operator()<float8e4m3fn>();
    case DataType::kFloat8E4M3FNUZ:
      return f.template operator()<float8e4m3fnuz>();
    case DataType::kFloat8E5M2:
      return f.template operator()<float8e5m2>();
    default:
      return f.template operator()<float8e5m2fnuz>();
  }
}

// Float8, float4 and sub-byte integer sources are widened to float / int8 /
// uint8 first; the widening is exact, so the result is the same as
// converting directly.
Tensor widen_packed(const Tensor& in) {
  const int64_t n = in.numel();
  const auto* p = in.data<uint8_t>();
  const DataType from = in.dtype();
  if (is_float8(from) || from == DataType::kFloat8E8M0 || from == DataType::kFloat4E2M1) {
    Tensor out(DataType::kFloat, in.shape());
    float* o = out.data<float>();
    if (from == DataType::kFloat8E8M0) {
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(float8e8m0::from_bits(p[i]));
    } else if (from == DataType::kFloat4E2M1) {
      for (int64_t i = 0; i < n; ++i) o[i] = float4e2m1_to_float(uint4_get(p, i));
    } else {
      dispatch_float8(from, [&]<typename F8>() {
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(F8::from_bits(p[i]));
      });
    }
    return out;
  }
  if (from == DataType::kInt4 || from == DataType::kInt2) {
    Tensor out(DataType::kInt8, in.shape());
    int8_t* o = out.data<int8_t>();
    for (int64_t i = 0; i < n; ++i)
      o[i] = from == DataType::kInt4 ? int4_get(p, i) : int2_get(p, i);
    return out;
  }
  Tensor out(DataType::kUint8, in.shape());
  uint8_t* o = out.data<uint8_t>();
  for (int64_t i = 0; i < n; ++i)
    o[i] = from == DataType::kUint4 ? uint4_get(p, i) : uint2_get(p, i);
  return out;
}

// A value as float with one rounding step left for the narrow target: exact
// for every source but double and the 64-bit integers, which are rounded to
// odd so that rounding again (to float8, float4 or a power of two) is correct.
template <typename S>
float to_float_for_narrowing(const S& v) {
  if constexpr (std::is_same_v<S, bool> || std::is_same_v<S, float> || is_half_v<S>)
    return convert<float>(v);
  else
    return round_to_odd_float(static_cast<double>(v));
}

template <typename S>
void write_float8(const S* in, Tensor& out, bool saturate) {
  uint8_t* o = out.data<uint8_t>();
  const int64_t n = out.numel();
  dispatch_float8(out.dtype(), [&]<typename F8>() {
    for (int64_t i = 0; i < n; ++i) o[i] = F8(convert<float>(in[i]), saturate).bits;
  });
}

template <typename S>
void write_float8e8m0(const S* in, Tensor& out, bool saturate, E8M0Round round_mode) {
  uint8_t* o = out.data<uint8_t>();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i)
    o[i] = float8e8m0(to_float_for_narrowing(in[i]), saturate, round_mode).bits;
}

template <typename S>
void write_float4(const S* in, Tensor& out) {
  uint8_t* o = out.data<uint8_t>();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i)
    nibble_set(o, i, float4e2m1_from_float(to_float_for_narrowing(in[i])));
}

template <typename S>
void write_int2(const S* in, Tensor& out) {
  uint8_t* o = out.data<uint8_t>();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) {
    int v;
    if constexpr (std::is_same_v<S, bool>)
      v = in[i] ? 1 : 0;
    else if constexpr (std::is_integral_v<S>)
      v = static_cast<int>(static_cast<uint64_t>(in[i]) & 0x3u);  // wraps, as integers do
    else
      v = int2_from_double(static_cast<double>(static_cast<arith_t<S>>(in[i])));
    crumb_set(o, i, v);
  }
}

template <typename S>
void write_int4(const S* in, Tensor& out) {
  uint8_t* o = out.data<uint8_t>();
  const bool is_signed = out.dtype() == DataType::kInt4;
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) {
    int v;
    if constexpr (std::is_same_v<S, bool>)
      v = in[i] ? 1 : 0;
    else if constexpr (std::is_unsigned_v<S>)
      v = int4_from_int(in[i] > 15u ? 15 : static_cast<int64_t>(in[i]), is_signed);
    else if constexpr (std::is_integral_v<S>)
      v = int4_from_int(in[i], is_signed);
    else
      v = int4_from_double(static_cast<double>(static_cast<arith_t<S>>(in[i])), is_signed);
    nibble_set(o, i, v);
  }
}

}  // namespace

Tensor cast_tensor(const KernelContext& ctx, const Tensor& input, DataType to, bool saturate,
                   E8M0Round round_mode) {
  const DataType from = input.dtype();
  if (from == to) return input;
  auto unsupported = [&]() {
    ctx.fail(
        fmt::format("cannot cast from {} to {}", ir::data_type_name(from), ir::data_type_name(to)));
  };
  if (from == DataType::kComplex64 || from == DataType::kComplex128 || to == DataType::kComplex64 ||
      to == DataType::kComplex128 || !ir::is_known_data_type(static_cast<int32_t>(from)) ||
      !ir::is_known_data_type(static_cast<int32_t>(to)))
    unsupported();
  if (is_packed(from)) return cast_tensor(ctx, widen_packed(input), to, saturate, round_mode);

  Tensor out(to, input.shape());
  const int64_t n = input.numel();
  if (from == DataType::kString) {
    const std::string* in = input.data<std::string>();
    if (is_packed(to)) {
      // Parse as float, then narrow with the float rules.
      Tensor floats(DataType::kFloat, input.shape());
      for (int64_t i = 0; i < n; ++i) floats.data<float>()[i] = parse_string<float>(ctx, in[i]);
      return cast_tensor(ctx, floats, to, saturate, round_mode);
    }
    dispatch<kNativeTypes>(to, ctx, [&]<typename D>() {
      D* o = out.data<D>();
      for (int64_t i = 0; i < n; ++i) o[i] = parse_string<D>(ctx, in[i]);
    });
    return out;
  }
  dispatch<kNativeTypes>(from, ctx, [&]<typename S>() {
    const S* in = input.data<S>();
    if (to == DataType::kString) {
      std::string* o = out.data<std::string>();
      for (int64_t i = 0; i < n; ++i) o[i] = to_string_value(in[i]);
    } else if (is_float8(to)) {
      write_float8(in, out, saturate);
    } else if (to == DataType::kFloat8E8M0) {
      write_float8e8m0(in, out, saturate, round_mode);
    } else if (to == DataType::kFloat4E2M1) {
      write_float4(in, out);
    } else if (is_int4(to)) {
      write_int4(in, out);
    } else if (is_int2(to)) {
      write_int2(in, out);
    } else {
      dispatch<kNativeTypes>(to, ctx, [&]<typename D>() {
        D* o = out.data<D>();
        for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(in[i]);
      });
    }
  });
  return out;
}

namespace {
// Cast-1 named the target type with a string ("FLOAT", "INT64", ...): the
// TensorProto.DataType enum names, which are data_type_name() upper-cased.
int64_t target_type(const KernelContext& ctx) {
  const ir::Attribute& attr = ctx.required_attribute("to");
  if (attr.type != ir::AttributeType::kString) return ctx.attr_int("to", 0);
  std::string name = attr.as_string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (auto t = ir::parse_data_type(name)) return static_cast<int64_t>(*t);
  ctx.fail(fmt::format("attribute 'to' names no element type: \"{}\"", attr.as_string()));
}

void cast(KernelContext& ctx) {
  const int64_t to = target_type(ctx);
  if (!ir::is_known_data_type(static_cast<int32_t>(to)))
    ctx.fail(fmt::format("attribute 'to' is {}, which is not an element type", to));
  const bool saturate = ctx.attr_int("saturate", 1) != 0;
  ctx.set_output(0, cast_tensor(ctx, ctx.input_tensor(0), static_cast<DataType>(to), saturate,
                                e8m0_round_mode(ctx)));
}
}  // namespace

E8M0Round e8m0_round_mode(const KernelContext& ctx) {
  const std::string mode = ctx.attr_string("round_mode", "up");
  if (mode == "up") return E8M0Round::kUp;
  if (mode == "down") return E8M0Round::kDown;
  if (mode == "nearest") return E8M0Round::kNearest;
  ctx.fail(fmt::format("attribute 'round_mode' is \"{}\"; expected \"up\", \"down\" or \"nearest\"",
                       mode));
}

void register_cast_cast(KernelRegistry& registry) {
  // 19 adds saturate and 21 int4/uint4 (float8 and 4-bit conversions here honour both); 23,
  // 24 and 25 add float4e2m1, float8e8m0 (with round_mode, which applies only to it) and
  // int2/uint2, which the conversions above handle.
  for (int64_t v : {1, 6, 9, 13, 19, 21, 23, 24, 25}) registry.add("", "Cast", v, cast);
}

}  // namespace onnxscript::eval
