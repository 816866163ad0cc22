// numpy's .npy format: a magic string, a version, a Python dict literal
// describing dtype/order/shape, then the raw elements.
//
// Element types numpy has no dtype for (bfloat16, the float8 types, and the
// packed 4-bit and 2-bit types) are written as a structured dtype of one
// field named after the ONNX type, holding one element per item:
// `[('bfloat16', '<u2')]`, `[('float8e8m0', '|u1')]`, `[('int4', '|i1')]`,
// `[('uint2', '|u1')]`, `[('float4e2m1', '|u1')]`. Floats keep their bit
// patterns; int4/int2 are sign-extended, uint4/uint2 zero-extended, and
// float4e2m1 nibbles zero-extended, so the sub-byte types are unpacked in the
// file. numpy reads such a file as a record array (`a['int4']` gives the
// values), and writes one back with the same header, so the type survives a
// round trip through numpy too. This is ml_dtypes-free by design: the bits
// and the type name are all a reader needs.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "onnxscript/eval/tensor_io.h"
#include "onnxscript/support/file_io.h"

namespace onnxscript::eval {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// Parses the header dict. numpy writes it with repr(), so only string,
// boolean and tuple-of-int values appear.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  struct Header {
    std::string descr;
    std::string field;  // the field name of a one-field structured descr
    bool fortran_order = false;
    std::vector<int64_t> shape;
  };

  Header parse() {
    Header h;
    bool has_descr = false, has_order = false, has_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = string_literal();
      expect(':');
      if (key == "descr") {
        skip_space();
        if (peek() == '[') {
          // [('name', 'descr')]: one field, as npy_to_bytes writes the
          // element types numpy lacks.
          expect('[');
          expect('(');
          h.field = string_literal();
          expect(',');
          h.descr = string_literal();
          skip_space();
          if (peek() == ',') ++pos_;
          expect(')');
          skip_space();
          if (peek() == ',') ++pos_;
          expect(']');
        } else {
          h.descr = string_literal();
        }
        has_descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
        has_order = true;
      } else if (key == "shape") {
        h.shape = int_tuple();
        has_shape = true;
      } else {
        fail(fmt::format("unexpected key '{}'", key));
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skip_space();
      if (peek() != '}') fail("expected ',' or '}'");
    }
    ++pos_;
    skip_space();
    if (pos_ != text_.size()) fail("text after the closing '}'");
    if (!has_descr || !has_order || !has_shape)
      fail("the header needs 'descr', 'fortran_order' and 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(fmt::format("{}: malformed .npy header: {} (at offset {} of '{}')", source_,
                                 what, pos_, text_));
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t'))
      ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }
  std::string string_literal() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a string");
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False");
  }
  std::vector<int64_t> int_tuple() {
    expect('(');
    std::vector<int64_t> out;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') fail("expected a dimension");
      int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (v > (INT64_MAX - 9) / 10) fail("dimension too large");
        v = v * 10 + (text_[pos_++] - '0');
      }
      if (peek() == 'L') ++pos_;  // Python 2 longs
      out.push_back(v);
      skip_space();
      if (peek() == ',')
        ++pos_;
      else if (peek() != ')')
        fail("expected ',' or ')'");
    }
    ++pos_;
    return out;
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
};

struct Descr {
  DataType dtype = DataType::kUndefined;
  size_t item_size = 0;
  bool swap = false;     // big-endian data
  char string_kind = 0;  // 'U' (UTF-32) or 'S' (bytes) for string tensors
};

Descr parse_descr(const std::string& descr, std::string_view source) {
  auto bad = [&]() -> ParseError {
    return ParseError(fmt::format("{}: unsupported .npy dtype '{}'", source, descr));
  };
  if (descr.size() < 2) throw bad();
  const char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=') throw bad();
  const char kind = descr[1];
  size_t size = 0;
  auto [ptr, ec] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), size);
  if (ec != std::errc() || ptr != descr.data() + descr.size()) throw bad();
  Descr d;
  d.item_size = size;
  d.swap = order == '>' && size > 1 && kind != 'S';
  switch (kind) {
    case 'b':
      if (size != 1) throw bad();
      d.dtype = DataType::kBool;
      break;
    case 'i':
      d.dtype = size == 1   ? DataType::kInt8
                : size == 2 ? DataType::kInt16
                : size == 4 ? DataType::kInt32
                : size == 8 ? DataType::kInt64
                            : DataType::kUndefined;
      break;
    case 'u':
      d.dtype = size == 1   ? DataType::kUint8
                : size == 2 ? DataType::kUint16
                : size == 4 ? DataType::kUint32
                : size == 8 ? DataType::kUint64
                            : DataType::kUndefined;
      break;
    case 'f':
      d.dtype = size == 2   ? DataType::kFloat16
                : size == 4 ? DataType::kFloat
                : size == 8 ? DataType::kDouble
                            : DataType::kUndefined;
      break;
    case 'c':
      d.dtype = size == 8    ? DataType::kComplex64
                : size == 16 ? DataType::kComplex128
                             : DataType::kUndefined;
      if (d.swap)
        throw bad();  // complex halves would need swapping separately; numpy rarely writes these
      break;
    case 'U':
      d.dtype = DataType::kString;
      d.string_kind = 'U';
      d.item_size = size * 4;
      break;
    case 'S':
      d.dtype = DataType::kString;
      d.string_kind = 'S';
      break;
    default:
      throw bad();
  }
  if (d.dtype == DataType::kUndefined) throw bad();
  return d;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes UTF-8 to code points; a malformed byte becomes U+FFFD rather than failing.
std::vector<uint32_t> utf8_code_points(const std::string& s) {
  std::vector<uint32_t> out;
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t extra = c < 0x80         ? 0
                         : (c >> 5) == 6  ? 1
                         : (c >> 4) == 14 ? 2
                         : (c >> 3) == 30 ? 3
                                          : 4;
    uint32_t cp = extra == 0 ? c : extra < 4 ? (c & (0x3F >> extra)) : 0;
    bool ok = extra < 4 && i + extra < s.size();
    for (size_t k = 1; ok && k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc >> 6) == 2;
      cp = (cp << 6) | (cc & 0x3F);
    }
    out.push_back(ok ? cp : 0xFFFD);
    i += ok ? extra + 1 : 1;
  }
  return out;
}

// The element types numpy lacks, stored as a one-field structured dtype (see
// the file comment): the descr of that field, or "" for other types.
std::string_view field_descr(DataType dtype) {
  switch (dtype) {
    case DataType::kBfloat16:
      return "<u2";
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kUint4:
    case DataType::kUint2:
    case DataType::kFloat4E2M1:
      return "|u1";
    case DataType::kInt4:
    case DataType::kInt2:
      return "|i1";
    default:
      return "";
  }
}

// A field-typed .npy body (one element per item) into a tensor of `dtype`,
// packing the sub-byte types and refusing values they cannot hold.
Tensor from_field_items(DataType dtype, const std::vector<int64_t>& shape, std::string_view data,
                        int64_t numel, std::string_view source) {
  Tensor t(dtype, shape);
  const auto* in = reinterpret_cast<const uint8_t*>(data.data());
  if (!ir::is_sub_byte(dtype)) {
    if (!data.empty()) std::memcpy(t.raw_data(), in, data.size());
    return t;
  }
  const int bits = ir::bit_width(dtype);
  const bool is_signed = ir::is_signed_integer(dtype);
  const int lo = is_signed ? -(1 << (bits - 1)) : 0;
  const int hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  const int64_t per_byte = 8 / bits;
  auto* out = t.data<uint8_t>();
  for (int64_t i = 0; i < numel; ++i) {
    const int v = is_signed ? static_cast<int>(static_cast<int8_t>(in[i])) : in[i];
    if (v < lo || v > hi)
      throw ParseError(fmt::format("{}: element {} of a {} .npy is {}, outside [{}, {}]", source, i,
                                   ir::data_type_name(dtype), v, lo, hi));
    out[i / per_byte] |= static_cast<uint8_t>((v & ((1 << bits) - 1)) << (bits * (i % per_byte)));
  }
  return t;
}

// The items of a field-typed .npy body for `t`: its bytes, with the
// sub-byte types unpacked to one (sign- or zero-extended) byte each.
std::string field_items(const Tensor& t) {
  const auto* p = static_cast<const uint8_t*>(t.raw_data());
  if (!ir::is_sub_byte(t.dtype())) return std::string(reinterpret_cast<const char*>(p), t.nbytes());
  const int bits = ir::bit_width(t.dtype());
  const int64_t per_byte = 8 / bits;
  const bool is_signed = ir::is_signed_integer(t.dtype());
  std::string out(static_cast<size_t>(t.numel()), '\0');
  for (int64_t i = 0; i < t.numel(); ++i) {
    int v = (p[i / per_byte] >> (bits * (i % per_byte))) & ((1 << bits) - 1);
    if (is_signed && (v >> (bits - 1))) v -= 1 << bits;
    out[static_cast<size_t>(i)] = static_cast<char>(v);
  }
  return out;
}

std::string npy_descr(DataType dtype) {
  if (const std::string_view field = field_descr(dtype); !field.empty())
    return fmt::format("[('{}', '{}')]", ir::data_type_name(dtype), field);
  switch (dtype) {
    case DataType::kBool:
      return "|b1";
    case DataType::kInt8:
      return "|i1";
    case DataType::kInt16:
      return "<i2";
    case DataType::kInt32:
      return "<i4";
    case DataType::kInt64:
      return "<i8";
    case DataType::kUint8:
      return "|u1";
    case DataType::kUint16:
      return "<u2";
    case DataType::kUint32:
      return "<u4";
    case DataType::kUint64:
      return "<u8";
    case DataType::kFloat16:
      return "<f2";
    case DataType::kFloat:
      return "<f4";
    case DataType::kDouble:
      return "<f8";
    case DataType::kComplex64:
      return "<c8";
    case DataType::kComplex128:
      return "<c16";
    default:
      throw TypeError(fmt::format("numpy has no dtype for {} elements; cannot write .npy",
                                  ir::data_type_name(dtype)));
  }
}

}  // namespace

Tensor npy_from_bytes(std::string_view bytes, std::string_view source) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic)
    throw ParseError(fmt::format("{}: not a .npy file (bad magic string)", source));
  const auto major = static_cast<uint8_t>(bytes[6]);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len =
        static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw ParseError(fmt::format("{}: truncated .npy header", source));
    for (int k = 3; k >= 0; --k)
      header_len = (header_len << 8) | static_cast<uint8_t>(bytes[8 + k]);
    header_start = 12;
  } else {
    throw ParseError(fmt::format("{}: unsupported .npy format version {}", source, major));
  }
  if (bytes.size() - header_start < header_len)
    throw ParseError(fmt::format("{}: truncated .npy header ({} bytes announced, {} present)",
                                 source, header_len, bytes.size() - header_start));
  const auto header = HeaderParser(bytes.substr(header_start, header_len), source).parse();
  if (header.fortran_order)
    throw ParseError(
        fmt::format("{}: fortran_order True is not supported; save a C-ordered array", source));
  const Descr d = parse_descr(header.descr, source);
  DataType field_type = DataType::kUndefined;
  if (!header.field.empty()) {
    // A one-field structured dtype: only the form npy_to_bytes writes.
    const auto named = ir::parse_data_type(header.field);
    if (!named || field_descr(*named).empty())
      throw ParseError(fmt::format(
          "{}: unsupported .npy dtype [('{}', '{}')]: a structured dtype must name an element "
          "type numpy lacks (bfloat16, float8*, int4, uint4, float4e2m1, int2, uint2)",
          source, header.field, header.descr));
    const std::string_view want = field_descr(*named);
    if (header.descr != want)
      throw ParseError(fmt::format("{}: a {} .npy field must be '{}', not '{}'", source,
                                   header.field, want, header.descr));
    field_type = *named;
  }
  int64_t numel = 0;
  try {
    numel = ir::checked_numel(header.shape);
  } catch (const ValidationError& e) {
    throw ParseError(fmt::format("{}: bad .npy shape: {}", source, e.what()));
  }
  const std::string_view data = bytes.substr(header_start + header_len);
  if (d.item_size != 0 && static_cast<uint64_t>(numel) > data.size() / d.item_size + 1)
    throw ParseError(fmt::format("{}: .npy data is truncated", source));
  const size_t expected = static_cast<size_t>(numel) * d.item_size;
  if (data.size() != expected)
    throw ParseError(fmt::format("{}: .npy data has {} bytes, the header announces {}", source,
                                 data.size(), expected));
  if (field_type != DataType::kUndefined)
    return from_field_items(field_type, header.shape, data, numel, source);
  Tensor t(d.dtype, header.shape);
  if (d.dtype == DataType::kString) {
    auto* out = t.data<std::string>();
    for (int64_t i = 0; i < numel; ++i) {
      const char* item = data.data() + static_cast<size_t>(i) * d.item_size;
      std::string s;
      if (d.string_kind == 'S') {
        s.assign(item, d.item_size);
        s.erase(s.find_last_not_of('\0') + 1);
      } else {
        for (size_t k = 0; k < d.item_size / 4; ++k) {
          uint32_t cp;
          std::memcpy(&cp, item + 4 * k, 4);
          if (d.swap) cp = __builtin_bswap32(cp);
          if (cp == 0) break;
          append_utf8(s, cp);
        }
      }
      out[i] = std::move(s);
    }
    return t;
  }
  if (expected > 0) std::memcpy(t.raw_data(), data.data(), expected);
  if (d.swap) {
    auto* p = static_cast<unsigned char*>(t.raw_data());
    for (int64_t i = 0; i < numel; ++i)
      std::reverse(p + i * d.item_size, p + (i + 1) * d.item_size);
  }
  if (d.dtype == DataType::kBool) {
    // Only 0 and 1 are valid bools in memory; normalize anything else.
    auto* p = static_cast<unsigned char*>(t.raw_data());
    for (int64_t i = 0; i < numel; ++i) p[i] = p[i] != 0;
  }
  return t;
}

std::string npy_to_bytes(const Tensor& t) {
  if (!t.defined()) throw TypeError("cannot write an undefined tensor as .npy");
  std::string descr;
  size_t max_chars = 1;
  std::vector<std::vector<uint32_t>> code_points;
  if (t.dtype() == DataType::kString) {
    for (int64_t i = 0; i < t.numel(); ++i) {
      code_points.push_back(utf8_code_points(t.data<std::string>()[i]));
      max_chars = std::max(max_chars, code_points.back().size());
    }
    descr = fmt::format("'<U{}'", max_chars);
  } else if (!field_descr(t.dtype()).empty()) {
    descr = npy_descr(t.dtype());  // a list literal: [('name', 'descr')]
  } else {
    descr = fmt::format("'{}'", npy_descr(t.dtype()));
  }
  std::string shape = fmt::format("{}", fmt::join(t.shape(), ", "));
  if (t.rank() == 1) shape += ',';  // Python's one-element tuple
  std::string dict =
      fmt::format("{{'descr': {}, 'fortran_order': False, 'shape': ({}), }}", descr, shape);
  // Pad with spaces so that the data starts on a 64-byte boundary, ending in '\n'.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  if (dict.size() > 0xFFFF) throw TypeError("tensor shape too long for a .npy 1.0 header");
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>(dict.size() >> 8);
  out += dict;
  if (t.dtype() == DataType::kString) {
    for (const auto& cps : code_points) {
      for (size_t k = 0; k < max_chars; ++k) {
        const uint32_t cp = k < cps.size() ? cps[k] : 0;
        char buf[4];
        std::memcpy(buf, &cp, 4);
        out.append(buf, 4);
      }
    }
  } else if (!field_descr(t.dtype()).empty()) {
    out += field_items(t);
  } else {
    out.append(static_cast<const char*>(t.raw_data()), t.nbytes());
  }
  return out;
}

Tensor load_npy(const std::filesystem::path& path) {
  const std::string bytes = read_file(path);
  return npy_from_bytes(bytes, path.string());
}

void save_npy(const Tensor& tensor, const std::filesystem::path& path) {
  write_file_atomically(path, npy_to_bytes(tensor));
}

}  // namespace onnxscript::eval
