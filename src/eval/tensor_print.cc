// Printing tensors the way numpy's str() does, close enough that a user who
// knows numpy reads it at a glance: one format for all elements of a tensor,
// aligned, summarized with "..." when large.
#include <cmath>
#include <complex>
#include <functional>
#include <ostream>
#include <span>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "onnxscript/eval/tensor_io.h"

namespace onnxscript::eval {
namespace {

double float8_value(DataType dtype, uint8_t b) {
  const bool negative = (b & 0x80) != 0;
  double v = 0;
  switch (dtype) {
    case DataType::kFloat8E4M3FN: {
      const int e = (b >> 3) & 0xF, m = b & 7;
      if (e == 15 && m == 7) return std::nan("");
      v = e == 0 ? std::ldexp(m, -9) : std::ldexp(1 + m / 8.0, e - 7);
      break;
    }
    case DataType::kFloat8E4M3FNUZ: {
      if (b == 0x80) return std::nan("");
      const int e = (b >> 3) & 0xF, m = b & 7;
      v = e == 0 ? std::ldexp(m, -10) : std::ldexp(1 + m / 8.0, e - 8);
      break;
    }
    case DataType::kFloat8E5M2: {
      const int e = (b >> 2) & 0x1F, m = b & 3;
      if (e == 31) return m == 0 ? (negative ? -INFINITY : INFINITY) : std::nan("");
      v = e == 0 ? std::ldexp(m, -16) : std::ldexp(1 + m / 4.0, e - 15);
      break;
    }
    case DataType::kFloat8E5M2FNUZ: {
      if (b == 0x80) return std::nan("");
      const int e = (b >> 2) & 0x1F, m = b & 3;
      v = e == 0 ? std::ldexp(m, -17) : std::ldexp(1 + m / 4.0, e - 16);
      break;
    }
    default:
      break;
  }
  return negative ? -v : v;
}

// The bits of element i of a packed sub-byte tensor (4-bit or 2-bit
// elements, the first in the lowest bits of its byte).
uint8_t packed_bits(const Tensor& t, int64_t i) {
  const int bits = ir::bit_width(t.dtype());
  const int64_t per_byte = 8 / bits;
  const uint8_t byte = t.data<uint8_t>()[i / per_byte];
  return static_cast<uint8_t>((byte >> (bits * (i % per_byte))) & ((1 << bits) - 1));
}

enum class Style { kInt, kBool, kFloat, kComplex, kString };

Style style_of(DataType dtype) {
  if (dtype == DataType::kBool) return Style::kBool;
  if (dtype == DataType::kString) return Style::kString;
  if (dtype == DataType::kComplex64 || dtype == DataType::kComplex128) return Style::kComplex;
  if (ir::is_floating_point(dtype)) return Style::kFloat;
  return Style::kInt;
}

std::string strip_zeros(std::string s) {
  // "1.50000000" -> "1.5", "2.00000000" -> "2."
  const size_t dot = s.find('.');
  if (dot == std::string::npos) return s;
  size_t end = s.size();
  while (end > dot + 1 && s[end - 1] == '0') --end;
  return s.substr(0, end);
}

// Formats the floats of one tensor with a shared notation and alignment,
// following numpy's FloatingFormat: integer parts right-aligned, fractions
// padded (with spaces in positional notation, zeros in scientific), nan and
// inf right-aligned to the same width.
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& values, int precision) : precision_(precision) {
    double max_abs = 0, min_abs = INFINITY;
    bool all_integral = true;
    bool any_finite = false;
    for (double v : values) {
      if (!std::isfinite(v)) continue;
      any_finite = true;
      const double a = std::fabs(v);
      max_abs = std::max(max_abs, a);
      if (a > 0) min_abs = std::min(min_abs, a);
      all_integral = all_integral && v == std::floor(v);
    }
    scientific_ =
        max_abs >= 1e16 || (!all_integral && (max_abs >= 1e8 || (min_abs < 1e-4) ||
                                              (min_abs != INFINITY && max_abs / min_abs > 1e3)));
    for (double v : values) {
      if (!std::isfinite(v)) continue;
      const Parts p = parts(v);
      left_ = std::max(left_, p.integer.size());
      right_ = std::max(right_, p.fraction.size());
    }
    for (double v : values) {
      if (std::isfinite(v)) continue;
      const size_t len = std::isnan(v) ? 3 : v > 0 ? 3 : 4;
      const size_t offset = right_ + 1;
      if (len > offset) left_ = std::max(left_, len - offset);
      if (!any_finite) left_ = std::max(left_, len);
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      const std::string s = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
      const size_t width = left_ + (right_ > 0 || scientific_ ? right_ + 1 : 0);
      return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    }
    const Parts p = parts(v);
    std::string out(left_ - p.integer.size(), ' ');
    out += p.integer;
    out += '.';
    out += p.fraction;
    if (scientific_) {
      out.append(right_ - p.fraction.size(), '0');
      out += p.exponent;
    } else {
      out.append(right_ - p.fraction.size(), ' ');
    }
    return out;
  }

 private:
  struct Parts {
    std::string integer, fraction, exponent;
  };

  Parts parts(double v) const {
    Parts p;
    std::string s;
    if (scientific_) {
      s = fmt::format("{:.{}e}", v, precision_);
      const size_t e = s.find('e');
      p.exponent = s.substr(e);
      s = strip_zeros(s.substr(0, e));
    } else {
      s = strip_zeros(fmt::format("{:.{}f}", v, precision_));
    }
    const size_t dot = s.find('.');
    p.integer = s.substr(0, dot);
    p.fraction = dot == std::string::npos ? "" : s.substr(dot + 1);
    return p;
  }

  int precision_;
  bool scientific_ = false;
  size_t left_ = 0, right_ = 0;
};

std::vector<int64_t> shown_indices(int64_t n, bool summarize, int64_t edge) {
  std::vector<int64_t> out;
  if (summarize && n > 2 * edge) {
    for (int64_t i = 0; i < edge; ++i) out.push_back(i);
    out.push_back(-1);  // the ellipsis
    for (int64_t i = n - edge; i < n; ++i) out.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) out.push_back(i);
  }
  return out;
}

void collect(std::span<const int64_t> shape, const std::vector<int64_t>& strides, bool summarize,
             int64_t edge, size_t axis, int64_t base, std::vector<int64_t>& out) {
  if (axis == shape.size()) {
    out.push_back(base);
    return;
  }
  for (int64_t i : shown_indices(shape[axis], summarize, edge))
    if (i >= 0) collect(shape, strides, summarize, edge, axis + 1, base + i * strides[axis], out);
}

void emit(std::ostream& out, std::span<const int64_t> shape, const std::vector<int64_t>& strides,
          bool summarize, int64_t edge, size_t axis, int64_t base,
          const std::function<std::string(int64_t)>& cell) {
  if (axis == shape.size()) {
    out << cell(base);
    return;
  }
  out << '[';
  const size_t rank = shape.size();
  bool first = true;
  for (int64_t i : shown_indices(shape[axis], summarize, edge)) {
    if (!first) {
      if (axis + 1 == rank) {
        out << ' ';
      } else {
        out << std::string(rank - axis - 1, '\n') << std::string(axis + 1, ' ');
      }
    }
    first = false;
    if (i < 0) {
      out << "...";
    } else {
      emit(out, shape, strides, summarize, edge, axis + 1, base + i * strides[axis], cell);
    }
  }
  out << ']';
}

}  // namespace

double element_as_double(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat:
      return t.data<float>()[i];
    case DataType::kDouble:
      return t.data<double>()[i];
    case DataType::kFloat16:
      return static_cast<float>(t.data<float16>()[i]);
    case DataType::kBfloat16:
      return static_cast<float>(t.data<bfloat16>()[i]);
    case DataType::kInt8:
      return t.data<int8_t>()[i];
    case DataType::kInt16:
      return t.data<int16_t>()[i];
    case DataType::kInt32:
      return t.data<int32_t>()[i];
    case DataType::kInt64:
      return static_cast<double>(t.data<int64_t>()[i]);
    case DataType::kUint8:
      return t.data<uint8_t>()[i];
    case DataType::kUint16:
      return t.data<uint16_t>()[i];
    case DataType::kUint32:
      return t.data<uint32_t>()[i];
    case DataType::kUint64:
      return static_cast<double>(t.data<uint64_t>()[i]);
    case DataType::kBool:
      return t.data<bool>()[i] ? 1 : 0;
    case DataType::kComplex64:
      return t.data<std::complex<float>>()[i].real();
    case DataType::kComplex128:
      return t.data<std::complex<double>>()[i].real();
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
      return float8_value(t.dtype(), t.data<uint8_t>()[i]);
    case DataType::kFloat8E8M0: {
      const uint8_t b = t.data<uint8_t>()[i];
      return b == 0xFF ? std::nan("") : std::ldexp(1.0, b - 127);
    }
    case DataType::kUint4:
    case DataType::kUint2:
      return packed_bits(t, i);
    case DataType::kInt4: {
      const int n = packed_bits(t, i);
      return n >= 8 ? n - 16 : n;
    }
    case DataType::kInt2: {
      const int n = packed_bits(t, i);
      return n >= 2 ? n - 4 : n;
    }
    case DataType::kFloat4E2M1: {
      const int n = packed_bits(t, i);
      const int e = (n >> 1) & 3, m = n & 1;
      const double v = e == 0 ? m * 0.5 : std::ldexp(1 + m / 2.0, e - 1);
      return (n & 8) ? -v : v;
    }
    default:
      throw TypeError(fmt::format("element_as_double: {} elements are not numbers",
                                  ir::data_type_name(t.dtype())));
  }
}

double max_abs_diff(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) {
    throw TypeError(fmt::format("max_abs_diff: shapes [{}] and [{}] differ",
                                fmt::join(a.shape(), ","), fmt::join(b.shape(), ",")));
  }
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = element_as_double(a, i), y = element_as_double(b, i);
    if (std::isnan(x) != std::isnan(y)) return std::nan("");
    if (!std::isnan(x)) worst = std::max(worst, std::fabs(x - y));
  }
  return worst;
}

std::string to_string(const Tensor& t, const PrintOptions& options) {
  if (!t.defined()) return "<undefined tensor>";
  const ir::Dims& shape = t.shape();
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  const bool summarize = t.numel() > options.threshold;
  std::vector<int64_t> shown;
  collect(shape, strides, summarize, options.edgeitems, 0, 0, shown);

  const Style style = style_of(t.dtype());
  std::vector<std::string> cells(shown.size());
  std::unordered_map<int64_t, size_t> position;
  for (size_t k = 0; k < shown.size(); ++k) position.emplace(shown[k], k);
  switch (style) {
    case Style::kString:
      for (size_t k = 0; k < shown.size(); ++k)
        cells[k] = fmt::format("'{}'", t.data<std::string>()[shown[k]]);
      break;
    case Style::kBool:
      for (size_t k = 0; k < shown.size(); ++k)
        cells[k] = t.data<bool>()[shown[k]] ? " True" : "False";
      break;
    case Style::kInt: {
      size_t width = 0;
      for (size_t k = 0; k < shown.size(); ++k) {
        if (t.dtype() == DataType::kInt64)
          cells[k] = fmt::format("{}", t.data<int64_t>()[shown[k]]);
        else if (t.dtype() == DataType::kUint64)
          cells[k] = fmt::format("{}", t.data<uint64_t>()[shown[k]]);
        else
          cells[k] = fmt::format("{}", static_cast<int64_t>(element_as_double(t, shown[k])));
        width = std::max(width, cells[k].size());
      }
      for (std::string& c : cells) c.insert(0, width - c.size(), ' ');
      break;
    }
    case Style::kFloat: {
      std::vector<double> values(shown.size());
      for (size_t k = 0; k < shown.size(); ++k) values[k] = element_as_double(t, shown[k]);
      // float32 and narrower print with fewer digits, as numpy does for float32.
      const int precision =
          t.dtype() == DataType::kDouble ? options.precision : std::min(options.precision, 8);
      FloatFormat format(values, precision);
      for (size_t k = 0; k < shown.size(); ++k) cells[k] = format(values[k]);
      break;
    }
    case Style::kComplex: {
      std::vector<double> re(shown.size()), im(shown.size());
      for (size_t k = 0; k < shown.size(); ++k) {
        const std::complex<double> c =
            t.dtype() == DataType::kComplex64
                ? std::complex<double>(t.data<std::complex<float>>()[shown[k]])
                : t.data<std::complex<double>>()[shown[k]];
        re[k] = c.real();
        im[k] = c.imag();
      }
      FloatFormat fr(re, options.precision), fi(im, options.precision);
      for (size_t k = 0; k < shown.size(); ++k) {
        std::string imag = fi(std::fabs(im[k]));
        cells[k] = fmt::format("{}{}{}j", fr(re[k]), std::signbit(im[k]) ? "-" : "+",
                               imag.substr(imag.find_first_not_of(' ')));
      }
      break;
    }
  }
  std::ostringstream out;
  auto cell = [&](int64_t flat) -> std::string { return cells[position.at(flat)]; };
  if (shape.empty()) {
    std::string s = cells.at(0);
    s.erase(0, s.find_first_not_of(' '));
    return s;
  }
  emit(out, shape, strides, summarize, options.edgeitems, 0, 0, cell);
  return out.str();
}

std::string to_string(const RuntimeValue& value, const PrintOptions& options) {
  switch (value.kind()) {
    case RuntimeValue::Kind::kNone:
      return "None";
    case RuntimeValue::Kind::kTensor:
      return to_string(value.tensor(), options);
    case RuntimeValue::Kind::kSequence: {
      std::string s = "[";
      bool first = true;
      for (const RuntimeValue& item : value.sequence().items) {
        if (!first) s += ", ";
        first = false;
        s += to_string(item, options);
      }
      return s + "]";
    }
    case RuntimeValue::Kind::kOptional:
      return value.optional().value ? to_string(*value.optional().value, options) : "None";
    case RuntimeValue::Kind::kMap:
      return fmt::format("{{keys: {}, values: {}}}", to_string(value.map().keys, options),
                         to_string(value.map().values, options));
  }
  return "?";
}

}  // namespace onnxscript::eval

namespace onnxscript::ir {

std::ostream& operator<<(std::ostream& out, const Tensor& tensor) {
  return out << eval::to_string(tensor);
}

}  // namespace onnxscript::ir
