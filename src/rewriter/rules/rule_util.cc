#include "rewriter/rules/rule_util.h"

#include <algorithm>

namespace onnxscript::rewriter::rules {

std::optional<std::vector<int64_t>> int_values(const ir::Tensor* t) {
  if (!t || t->rank() > 1) return std::nullopt;
  std::vector<int64_t> out;
  if (t->dtype() == ir::DataType::kInt64) {
    out.assign(t->data<int64_t>(), t->data<int64_t>() + t->numel());
  } else if (t->dtype() == ir::DataType::kInt32) {
    for (int64_t i = 0; i < t->numel(); ++i) out.push_back(t->data<int32_t>()[i]);
  } else {
    return std::nullopt;
  }
  return out;
}

std::optional<double> scalar_value(const ir::Tensor* t) {
  if (!t || t->numel() != 1) return std::nullopt;
  switch (t->dtype()) {
    case ir::DataType::kFloat:
      return t->data<float>()[0];
    case ir::DataType::kDouble:
      return t->data<double>()[0];
    case ir::DataType::kInt8:
      return t->data<int8_t>()[0];
    case ir::DataType::kInt16:
      return t->data<int16_t>()[0];
    case ir::DataType::kInt32:
      return t->data<int32_t>()[0];
    case ir::DataType::kInt64:
      return static_cast<double>(t->data<int64_t>()[0]);
    case ir::DataType::kUint8:
      return t->data<uint8_t>()[0];
    case ir::DataType::kUint16:
      return t->data<uint16_t>()[0];
    case ir::DataType::kUint32:
      return t->data<uint32_t>()[0];
    case ir::DataType::kUint64:
      return static_cast<double>(t->data<uint64_t>()[0]);
    default:
      return std::nullopt;  // float16 and the rest: not read here
  }
}

namespace {

// Facts per type: is it a signed or unsigned integer and how many value bits
// it has, or a floating type and how many significand bits (with the
// implicit one) and exponent range it has.
struct Kind {
  enum { kBool, kSigned, kUnsigned, kFloating, kOther } kind;
  int bits;      // integers: value bits (without the sign); floats: significand bits
  int exponent;  // floats: the largest binary exponent
};

Kind kind_of(ir::DataType t) {
  using D = ir::DataType;
  switch (t) {
    case D::kBool:
      return {Kind::kBool, 1, 0};
    case D::kInt8:
      return {Kind::kSigned, 7, 0};
    case D::kInt16:
      return {Kind::kSigned, 15, 0};
    case D::kInt32:
      return {Kind::kSigned, 31, 0};
    case D::kInt64:
      return {Kind::kSigned, 63, 0};
    case D::kUint8:
      return {Kind::kUnsigned, 8, 0};
    case D::kUint16:
      return {Kind::kUnsigned, 16, 0};
    case D::kUint32:
      return {Kind::kUnsigned, 32, 0};
    case D::kUint64:
      return {Kind::kUnsigned, 64, 0};
    case D::kFloat16:
      return {Kind::kFloating, 11, 15};
    case D::kBfloat16:
      return {Kind::kFloating, 8, 127};
    case D::kFloat:
      return {Kind::kFloating, 24, 127};
    case D::kDouble:
      return {Kind::kFloating, 53, 1023};
    default:
      return {Kind::kOther, 0, 0};
  }
}

}  // namespace

bool exactly_representable(ir::DataType from, ir::DataType to) {
  if (from == to) return true;
  const Kind f = kind_of(from), t = kind_of(to);
  if (f.kind == Kind::kOther || t.kind == Kind::kOther) return false;
  if (f.kind == Kind::kBool) return t.kind != Kind::kBool;  // 0 and 1 fit everywhere
  if (t.kind == Kind::kBool) return false;
  if (t.kind == Kind::kFloating) {
    // Every integer below 2^significand is exact; a float needs at least its
    // significand and exponent range.
    if (f.kind == Kind::kFloating) return t.bits >= f.bits && t.exponent >= f.exponent;
    return f.bits <= t.bits;
  }
  if (f.kind == Kind::kFloating) return false;
  if (t.kind == Kind::kUnsigned) return f.kind == Kind::kUnsigned && f.bits <= t.bits;
  return f.bits <= t.bits;  // into a signed type: signed or unsigned with fewer value bits
}

std::optional<std::vector<int64_t>> normalized_axes(std::vector<int64_t> axes, int64_t rank) {
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return std::nullopt;
  return axes;
}

bool is_floating(ir::DataType t) {
  return t == ir::DataType::kFloat16 || t == ir::DataType::kBfloat16 || t == ir::DataType::kFloat ||
         t == ir::DataType::kDouble;
}

}  // namespace onnxscript::rewriter::rules
