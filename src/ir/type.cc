#include "onnxscript/ir/type.h"

#include <algorithm>

#include <fmt/format.h>

namespace onnxscript::ir {

Type Type::tensor(DataType elem, std::optional<Shape> shape) {
  Type t;
  t.kind = TypeKind::kTensor;
  t.elem_type = elem;
  t.shape = std::move(shape);
  return t;
}

Type Type::sparse_tensor(DataType elem, std::optional<Shape> shape) {
  Type t = tensor(elem, std::move(shape));
  t.kind = TypeKind::kSparseTensor;
  return t;
}

Type Type::sequence(Type elem) {
  Type t;
  t.kind = TypeKind::kSequence;
  t.element = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::optional(Type elem) {
  Type t;
  t.kind = TypeKind::kOptional;
  t.element = std::make_shared<const Type>(std::move(elem));
  return t;
}

Type Type::map(DataType key, Type value) {
  Type t;
  t.kind = TypeKind::kMap;
  t.elem_type = key;
  t.element = std::make_shared<const Type>(std::move(value));
  return t;
}

bool Type::operator==(const Type& other) const {
  if (kind != other.kind || elem_type != other.elem_type || shape != other.shape ||
      opaque_domain != other.opaque_domain || opaque_name != other.opaque_name ||
      denotation != other.denotation)
    return false;
  if (!element || !other.element) return element == other.element;
  return *element == *other.element;
}

namespace {
std::string shape_to_string(const std::optional<Shape>& shape) {
  if (!shape) return "";
  std::string out = "[";
  for (size_t i = 0; i < shape->size(); ++i) {
    if (i) out += ",";
    const Dim& d = (*shape)[i];
    if (d.is_static()) {
      out += std::to_string(d.value());
    } else if (d.is_symbolic()) {
      out += d.symbol();
    } else {
      out += "?";
    }
  }
  return out + "]";
}
}  // namespace

std::string Type::to_string() const {
  auto elem = [&] { return element ? element->to_string() : std::string("?"); };
  switch (kind) {
    case TypeKind::kUnspecified:
      return "?";
    case TypeKind::kTensor:
      return std::string(data_type_name(elem_type)) + shape_to_string(shape);
    case TypeKind::kSparseTensor:
      return fmt::format("sparse_tensor({}{})", data_type_name(elem_type), shape_to_string(shape));
    case TypeKind::kSequence:
      return fmt::format("seq({})", elem());
    case TypeKind::kOptional:
      return fmt::format("optional({})", elem());
    case TypeKind::kMap:
      return fmt::format("map({}, {})", data_type_name(elem_type), elem());
    case TypeKind::kOpaque:
      return fmt::format("opaque({}, {})", opaque_domain, opaque_name);
  }
  return "?";
}

int64_t min_ir_version(const Type& type) {
  int64_t v = 3;
  switch (type.kind) {
    case TypeKind::kTensor:
    case TypeKind::kSparseTensor:
      v = std::max<int64_t>(3, min_ir_version(type.elem_type));
      // TypeProto.SparseTensor came with IR 8 (SparseTensorProto values with 6).
      if (type.kind == TypeKind::kSparseTensor) v = std::max<int64_t>(v, 8);
      break;
    case TypeKind::kOptional:
      v = 8;
      break;
    case TypeKind::kMap:
      v = std::max<int64_t>(v, min_ir_version(type.elem_type));
      break;
    default:
      break;
  }
  if (type.element) v = std::max(v, min_ir_version(*type.element));
  return v;
}

}  // namespace onnxscript::ir
