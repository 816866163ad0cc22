#include "onnxscript/ir/type.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace onnxscript::ir {

const Dim& Shape::at(size_t i) const {
  if (i >= size()) throw std::out_of_range("Shape::at");
  return data()[i];
}

void Shape::set(size_t i, Dim dim) {
  make_room(0);
  rep_->dims()[i] = std::move(dim);
}

bool Shape::operator==(const Shape& other) const {
  if (rep_ == other.rep_) return true;
  return std::equal(begin(), end(), other.begin(), other.end());
}

void Shape::grow(size_t extra) {
  const size_t size = this->size();
  const size_t needed = size + extra;
  // The only owner may give its dimensions away and grows geometrically; a
  // shared list is copied into one of exactly the size needed.
  const bool sole = rep_ && rep_->refs.load(std::memory_order_acquire) == 1;
  const size_t capacity = sole ? std::max<size_t>(needed, 2 * size_t{rep_->capacity}) : needed;
  auto* fresh = static_cast<Rep*>(::operator new(sizeof(Rep) + capacity * sizeof(Dim)));
  fresh->refs.store(1, std::memory_order_relaxed);
  fresh->size = 0;
  fresh->capacity = static_cast<uint32_t>(capacity);
  try {
    for (size_t i = 0; i < size; ++i) {
      if (sole) {
        new (fresh->dims() + i) Dim(std::move(rep_->dims()[i]));
      } else {
        new (fresh->dims() + i) Dim(rep_->dims()[i]);
      }
      fresh->size = static_cast<uint32_t>(i + 1);
    }
  } catch (...) {
    destroy(fresh);  // a symbol's copy ran out of memory
    throw;
  }
  release(rep_);
  rep_ = fresh;
}

void Shape::destroy(Rep* rep) noexcept {
  for (uint32_t i = 0; i < rep->size; ++i) std::destroy_at(rep->dims() + i);
  ::operator delete(rep);
}

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

const Type::Labels& Type::labels() const {
  static const Labels none;
  return labels_ ? *labels_ : none;
}

Type::Labels& Type::mutable_labels() {
  // Copy on write: other copies of this type keep their labels.
  auto fresh = labels_ ? std::make_shared<Labels>(*labels_) : std::make_shared<Labels>();
  Labels& out = *fresh;
  labels_ = std::move(fresh);
  return out;
}

void Type::set_opaque(std::string domain, std::string name) {
  Labels& l = mutable_labels();
  l.opaque_domain = std::move(domain);
  l.opaque_name = std::move(name);
}

void Type::set_denotation(std::string denotation) {
  mutable_labels().denotation = std::move(denotation);
}

bool Type::operator==(const Type& other) const {
  if (kind != other.kind || elem_type != other.elem_type || shape != other.shape ||
      (labels_ != other.labels_ && labels() != other.labels()))
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
      return fmt::format("opaque({}, {})", opaque_domain(), opaque_name());
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
