// TypeProto <-> ir::Type, and metadata_props.
//
// Types are read losslessly, element type values included: a value this
// build does not know is kept as is rather than rejected, because a type
// annotation never forces us to interpret data.

#include "serde/proto_codec.h"
#include "serde/residue.h"

namespace onnxscript::serde::detail {
namespace {

std::optional<ir::Shape> decode_shape(const wire::TensorShapeProto& proto,
                                      const ErrorContext& ctx) {
  check_unknown_fields(proto, ctx);
  ir::Shape shape;
  shape.reserve(static_cast<size_t>(proto.dim_size()));
  for (const auto& d : proto.dim()) {
    check_unknown_fields(d, ctx);
    ir::Dim dim;
    if (d.has_dim_value()) {
      dim = ir::Dim(d.dim_value());
    } else if (d.has_dim_param()) {
      dim = ir::Dim(d.dim_param());
    }
    dim.denotation = d.denotation();
    shape.push_back(std::move(dim));
  }
  return shape;
}

}  // namespace

ir::Type decode_type(const wire::TypeProto& p, const ErrorContext& ctx) {
  check_unknown_fields(p, ctx);
  ir::Type t;
  auto element = [&](bool has, const wire::TypeProto& elem) -> std::shared_ptr<const ir::Type> {
    if (!has) return nullptr;
    return std::make_shared<const ir::Type>(decode_type(elem, ctx));
  };
  switch (p.value_case()) {
    case wire::TypeProto::kTensorType: {
      const auto& tt = p.tensor_type();
      check_unknown_fields(tt, ctx);
      t.kind = ir::TypeKind::kTensor;
      t.elem_type = static_cast<ir::DataType>(tt.elem_type());
      if (tt.has_shape()) t.shape = decode_shape(tt.shape(), ctx);
      break;
    }
    case wire::TypeProto::kSparseTensorType: {
      const auto& st = p.sparse_tensor_type();
      check_unknown_fields(st, ctx);
      t.kind = ir::TypeKind::kSparseTensor;
      t.elem_type = static_cast<ir::DataType>(st.elem_type());
      if (st.has_shape()) t.shape = decode_shape(st.shape(), ctx);
      break;
    }
    case wire::TypeProto::kSequenceType:
      check_unknown_fields(p.sequence_type(), ctx);
      t.kind = ir::TypeKind::kSequence;
      t.element = element(p.sequence_type().has_elem_type(), p.sequence_type().elem_type());
      break;
    case wire::TypeProto::kOptionalType:
      check_unknown_fields(p.optional_type(), ctx);
      t.kind = ir::TypeKind::kOptional;
      t.element = element(p.optional_type().has_elem_type(), p.optional_type().elem_type());
      break;
    case wire::TypeProto::kMapType:
      check_unknown_fields(p.map_type(), ctx);
      t.kind = ir::TypeKind::kMap;
      t.elem_type = static_cast<ir::DataType>(p.map_type().key_type());
      t.element = element(p.map_type().has_value_type(), p.map_type().value_type());
      break;
    case wire::TypeProto::kOpaqueType:
      check_unknown_fields(p.opaque_type(), ctx);
      t.kind = ir::TypeKind::kOpaque;
      t.set_opaque(p.opaque_type().domain(), p.opaque_type().name());
      break;
    case wire::TypeProto::VALUE_NOT_SET:
      break;
  }
  if (!p.denotation().empty()) t.set_denotation(p.denotation());
  return t;
}

void encode_type(const ir::Type& t, wire::TypeProto* p) {
  switch (t.kind) {
    case ir::TypeKind::kUnspecified:
      break;
    case ir::TypeKind::kTensor: {
      auto* tt = p->mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem_type));
      if (t.shape) encode_shape(*t.shape, tt->mutable_shape());
      break;
    }
    case ir::TypeKind::kSparseTensor: {
      auto* st = p->mutable_sparse_tensor_type();
      st->set_elem_type(static_cast<int32_t>(t.elem_type));
      if (t.shape) encode_shape(*t.shape, st->mutable_shape());
      break;
    }
    case ir::TypeKind::kSequence: {
      auto* s = p->mutable_sequence_type();
      if (t.element) encode_type(*t.element, s->mutable_elem_type());
      break;
    }
    case ir::TypeKind::kOptional: {
      auto* o = p->mutable_optional_type();
      if (t.element) encode_type(*t.element, o->mutable_elem_type());
      break;
    }
    case ir::TypeKind::kMap: {
      auto* m = p->mutable_map_type();
      m->set_key_type(static_cast<int32_t>(t.elem_type));
      if (t.element) encode_type(*t.element, m->mutable_value_type());
      break;
    }
    case ir::TypeKind::kOpaque: {
      auto* o = p->mutable_opaque_type();
      if (!t.opaque_domain().empty()) o->set_domain(t.opaque_domain());
      if (!t.opaque_name().empty()) o->set_name(t.opaque_name());
      break;
    }
  }
  if (!t.denotation().empty()) p->set_denotation(t.denotation());
}

ir::MetadataProps decode_metadata(
    const google::protobuf::RepeatedPtrField<wire::StringStringEntryProto>& entries,
    const ErrorContext& ctx) {
  ir::MetadataProps props;
  props.reserve(static_cast<size_t>(entries.size()));
  for (const auto& e : entries) {
    check_unknown_fields(e, ctx);
    props.emplace_back(e.key(), e.value());
  }
  return props;
}

void encode_metadata(const ir::MetadataProps& props,
                     google::protobuf::RepeatedPtrField<wire::StringStringEntryProto>* entries) {
  for (const auto& [key, value] : props) {
    auto* e = entries->Add();
    e->set_key(key);
    e->set_value(value);
  }
}

}  // namespace onnxscript::serde::detail
