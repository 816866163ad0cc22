#include "promotion.h"

#include "common.h"

namespace onnxscript::torch_lib {

namespace {

// PyTorch's categories, in promotion order.
enum class Category { kBool, kIntegral, kFloating, kOther };

Category category_of(DataType t) {
  if (t == DataType::kBool) return Category::kBool;
  if (is_floating(t)) return Category::kFloating;
  switch (t) {
    case DataType::kUint8:
    case DataType::kInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
      return Category::kIntegral;
    default:
      return Category::kOther;
  }
}

// The wider of two types of one category, as torch.promote_types says.
DataType wider(DataType a, DataType b) {
  if (a == b) return a;
  if (category_of(a) == Category::kFloating) {
    if (a == DataType::kDouble || b == DataType::kDouble) return DataType::kDouble;
    if (a == DataType::kFloat || b == DataType::kFloat) return DataType::kFloat;
    return DataType::kFloat;  // float16 with bfloat16
  }
  // Integers: uint8 with a signed type needs the next signed width.
  auto bits = [](DataType t) {
    switch (t) {
      case DataType::kUint8:
      case DataType::kInt8:
        return 8;
      case DataType::kInt16:
        return 16;
      case DataType::kInt32:
        return 32;
      default:
        return 64;
    }
  };
  if (a == DataType::kUint8 || b == DataType::kUint8) {
    const DataType other = a == DataType::kUint8 ? b : a;
    if (other == DataType::kInt8) return DataType::kInt16;
    return other;
  }
  return bits(a) >= bits(b) ? a : b;
}

// The type a literal takes on its own: PyTorch's default dtypes.
std::optional<DataType> literal_type(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kFloatLiteral:
      return DataType::kFloat;
    case Value::Kind::kIntLiteral:
      return DataType::kInt64;
    case Value::Kind::kBoolLiteral:
      return DataType::kBool;
    default:
      return std::nullopt;
  }
}

}  // namespace

bool has_integral_dtype(const Value& v) {
  const std::optional<DataType> t = v.dtype();
  if (!t) return false;
  const Category c = category_of(*t);
  return c == Category::kBool || c == Category::kIntegral;
}

bool has_bool_dtype(const Value& v) { return v.dtype() == DataType::kBool; }

Value floating_or_float32(Value v) {
  if (has_integral_dtype(v)) return op::Cast(v, {.to = DataType::kFloat});
  return v;
}

std::optional<DataType> result_type(const Value& a, const Value& b) {
  if (a.is_literal() && b.is_literal()) {
    const DataType ta = *literal_type(a), tb = *literal_type(b);
    return category_of(ta) >= category_of(tb) ? ta : tb;
  }
  if (a.is_literal() || b.is_literal()) {
    const Value& literal = a.is_literal() ? a : b;
    const std::optional<DataType> tensor = (a.is_literal() ? b : a).dtype();
    if (!tensor) return std::nullopt;
    const DataType lt = *literal_type(literal);
    // A literal of a higher category than the tensor's brings its default type.
    return category_of(lt) > category_of(*tensor) ? lt : *tensor;
  }
  const std::optional<DataType> ta = a.dtype(), tb = b.dtype();
  if (!ta || !tb) return std::nullopt;
  if (*ta == *tb) return *ta;
  const Category ca = category_of(*ta), cb = category_of(*tb);
  if (ca == Category::kOther || cb == Category::kOther) return std::nullopt;
  if (ca != cb) return ca > cb ? *ta : *tb;
  // Within one category a 0-D tensor does not widen a dimensioned one.
  const bool a0 = a.rank() == 0, b0 = b.rank() == 0;
  if (a0 && !b0) return *tb;
  if (b0 && !a0) return *ta;
  return wider(*ta, *tb);
}

std::pair<Value, Value> promote(Value a, Value b) {
  const std::optional<DataType> t = result_type(a, b);
  if (!t) return {std::move(a), std::move(b)};
  auto cast = [&](Value v) {
    if (v.is_literal()) return v;
    if (v.dtype() == *t) return v;
    return op::Cast(v, {.to = *t});
  };
  return {cast(std::move(a)), cast(std::move(b))};
}

Value scalar_of(DataType type, double x) {
  const Value d(Tensor::scalar<double>(x));
  return type == DataType::kDouble ? d : op::Cast(d, {.to = type});
}

}  // namespace onnxscript::torch_lib
