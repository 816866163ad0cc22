#include "onnxscript/eval/runtime_value.h"

#include <fmt/format.h>

namespace onnxscript::eval {

RuntimeValue::RuntimeValue(Tensor tensor) : kind_(Kind::kTensor), tensor_(std::move(tensor)) {}

RuntimeValue RuntimeValue::sequence(ir::Type elem_type, std::vector<RuntimeValue> items) {
  RuntimeValue v;
  v.kind_ = Kind::kSequence;
  v.payload_ =
      std::make_shared<const SequenceValue>(SequenceValue{std::move(elem_type), std::move(items)});
  return v;
}

RuntimeValue RuntimeValue::optional(ir::Type elem_type, std::optional<RuntimeValue> value) {
  RuntimeValue v;
  v.kind_ = Kind::kOptional;
  std::shared_ptr<const RuntimeValue> inner;
  if (value) inner = std::make_shared<const RuntimeValue>(std::move(*value));
  v.payload_ =
      std::make_shared<const OptionalValue>(OptionalValue{std::move(elem_type), std::move(inner)});
  return v;
}

RuntimeValue RuntimeValue::map(Tensor keys, Tensor values) {
  if (keys.rank() != 1 || values.rank() < 1 || keys.shape()[0] != values.shape()[0]) {
    throw TypeError(
        fmt::format("a map needs 1-D keys and values of one length, got {} keys and {} values",
                    keys.numel(), values.numel()));
  }
  RuntimeValue v;
  v.kind_ = Kind::kMap;
  v.payload_ = std::make_shared<const MapValue>(MapValue{std::move(keys), std::move(values)});
  return v;
}

namespace {
[[noreturn]] void wrong_kind(const RuntimeValue& v, const char* wanted) {
  throw TypeError(fmt::format("expected a {} but the value is {}", wanted, v.describe()));
}
}  // namespace

const Tensor& RuntimeValue::tensor() const {
  if (kind_ != Kind::kTensor) wrong_kind(*this, "tensor");
  return tensor_;
}
const SequenceValue& RuntimeValue::sequence() const {
  if (kind_ != Kind::kSequence) wrong_kind(*this, "sequence");
  return *static_cast<const SequenceValue*>(payload_.get());
}
const OptionalValue& RuntimeValue::optional() const {
  if (kind_ != Kind::kOptional) wrong_kind(*this, "optional");
  return *static_cast<const OptionalValue*>(payload_.get());
}
const MapValue& RuntimeValue::map() const {
  if (kind_ != Kind::kMap) wrong_kind(*this, "map");
  return *static_cast<const MapValue*>(payload_.get());
}

ir::Type RuntimeValue::type() const {
  switch (kind_) {
    case Kind::kNone:
      return {};
    case Kind::kTensor: {
      ir::Shape shape;
      for (int64_t d : tensor_.shape()) shape.emplace_back(d);
      return ir::Type::tensor(tensor_.dtype(), std::move(shape));
    }
    case Kind::kSequence:
      return ir::Type::sequence(sequence().elem_type);
    case Kind::kOptional:
      return ir::Type::optional(optional().elem_type);
    case Kind::kMap: {
      ir::Type value_type = ir::Type::tensor(map().values.dtype());
      return ir::Type::map(map().keys.dtype(), value_type);
    }
  }
  return {};
}

std::string RuntimeValue::describe() const {
  switch (kind_) {
    case Kind::kNone:
      return "none";
    case Kind::kTensor:
      return fmt::format("tensor({})[{}]", ir::data_type_name(tensor_.dtype()),
                         fmt::join(tensor_.shape(), ","));
    case Kind::kSequence:
      return fmt::format("sequence of {} {}", sequence().items.size(),
                         sequence().elem_type.to_string());
    case Kind::kOptional:
      return optional().value ? fmt::format("optional holding {}", optional().value->describe())
                              : "empty optional";
    case Kind::kMap:
      return fmt::format("map({}, {}) of {}", ir::data_type_name(map().keys.dtype()),
                         ir::data_type_name(map().values.dtype()), map().keys.numel());
  }
  return "?";
}

std::string type_mismatch(const ir::Type& declared, const RuntimeValue& value, bool check_shapes) {
  switch (declared.kind) {
    case ir::TypeKind::kUnspecified:
      return "";
    case ir::TypeKind::kTensor: {
      if (!value.is_tensor()) return fmt::format("expected a tensor, got {}", value.describe());
      const Tensor& t = value.tensor();
      if (declared.elem_type != DataType::kUndefined && declared.elem_type != t.dtype())
        return fmt::format("expected element type {}, got {}",
                           ir::data_type_name(declared.elem_type), ir::data_type_name(t.dtype()));
      if (!declared.shape || !check_shapes) return "";
      if (declared.shape->size() != t.shape().size())
        return fmt::format("expected rank {} ({}), got rank {} (shape [{}])",
                           declared.shape->size(), declared.to_string(), t.rank(),
                           fmt::join(t.shape(), ","));
      for (size_t d = 0; d < declared.shape->size(); ++d) {
        const ir::Dim& dim = (*declared.shape)[d];
        if (dim.is_static() && dim.value() != t.shape()[d])
          return fmt::format("dimension {} must be {} ({}), got shape [{}]", d, dim.value(),
                             declared.to_string(), fmt::join(t.shape(), ","));
      }
      return "";
    }
    case ir::TypeKind::kSequence:
      return value.is_sequence() ? ""
                                 : fmt::format("expected a sequence, got {}", value.describe());
    case ir::TypeKind::kOptional:
      // An optional input also accepts its element directly (as ONNX Runtime does).
      return value.is_optional() || value.is_none() || value.is_tensor() || value.is_sequence()
                 ? ""
                 : fmt::format("expected an optional, got {}", value.describe());
    case ir::TypeKind::kMap: {
      if (!value.is_map()) return fmt::format("expected a map, got {}", value.describe());
      const MapValue& map = value.map();
      const ir::Type* value_type = declared.element.get();
      const DataType want_values =
          value_type && value_type->is_tensor() ? value_type->elem_type : DataType::kUndefined;
      if ((declared.elem_type != DataType::kUndefined && declared.elem_type != map.keys.dtype()) ||
          (want_values != DataType::kUndefined && want_values != map.values.dtype()))
        return fmt::format("expected {}, got {}", declared.to_string(), value.describe());
      return "";
    }
    default:
      return "";
  }
}

}  // namespace onnxscript::eval
