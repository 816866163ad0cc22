// The bridge to libonnx goes through bytes: both sides speak the same wire
// format, and the two generated class families cannot share objects.

#include "onnxscript/serde/onnx_interop.h"

#include <fmt/format.h>

#include "onnxscript/serde/serde.h"
#include "serde/proto_codec.h"

namespace onnxscript::serde {

onnx::ModelProto to_onnx_proto(const ir::Model& model) {
  onnx::ModelProto proto;
  if (!proto.ParseFromString(serialize_model(model))) {
    throw Error("to_onnx_proto: libonnx could not parse the serialized model");
  }
  return proto;
}

ir::Model from_onnx_proto(const onnx::ModelProto& proto, const std::filesystem::path& base_dir) {
  std::string bytes;
  if (!proto.SerializeToString(&bytes)) {
    throw Error("from_onnx_proto: the onnx::ModelProto cannot be serialized (over 2 GB?)");
  }
  return load_model_from_bytes(bytes, base_dir, "<onnx::ModelProto>");
}

namespace {

// Copies a message between the two generated class families through bytes.
template <typename To, typename From>
To reparse(const From& from, const char* what) {
  To to;
  if (!to.ParseFromString(from.SerializeAsString()))
    throw Error(fmt::format("{}: libonnx could not parse it", what));
  return to;
}

}  // namespace

// Dense tensor types, by far the common case, convert directly: shape
// inference runs once per traced node, so this is on the tracing hot path.
onnx::TypeProto to_onnx_type(const ir::Type& type) {
  if (type.kind != ir::TypeKind::kTensor) {
    wire::TypeProto wire_type;
    detail::encode_type(type, &wire_type);
    return reparse<onnx::TypeProto>(wire_type, "to_onnx_type");
  }
  onnx::TypeProto proto;
  auto* tensor = proto.mutable_tensor_type();
  tensor->set_elem_type(static_cast<int32_t>(type.elem_type));
  if (type.shape) detail::encode_shape(*type.shape, tensor->mutable_shape());
  if (!type.denotation().empty()) proto.set_denotation(type.denotation());
  return proto;
}

ir::Type from_onnx_type(const onnx::TypeProto& proto) {
  if (proto.value_case() == onnx::TypeProto::kTensorType && proto.denotation().empty()) {
    const auto& tensor = proto.tensor_type();
    ir::Type type = ir::Type::tensor(static_cast<ir::DataType>(tensor.elem_type()));
    if (tensor.has_shape()) {
      ir::Shape shape;
      shape.reserve(static_cast<size_t>(tensor.shape().dim_size()));
      for (const auto& d : tensor.shape().dim()) {
        ir::Dim dim = d.has_dim_value()   ? ir::Dim(d.dim_value())
                      : d.has_dim_param() ? ir::Dim(d.dim_param())
                                          : ir::Dim();
        dim.denotation = d.denotation();
        shape.push_back(std::move(dim));
      }
      type.shape = std::move(shape);
    }
    return type;
  }
  const auto wire_type = reparse<wire::TypeProto>(proto, "from_onnx_type");
  return detail::decode_type(wire_type, detail::ErrorContext("<onnx::TypeProto>"));
}

onnx::TensorProto to_onnx_tensor(const ir::Tensor& tensor) {
  wire::TensorProto wire_tensor;
  detail::ErrorContext ctx("<tensor>");
  detail::encode_tensor(tensor, &wire_tensor, ctx, nullptr);
  return reparse<onnx::TensorProto>(wire_tensor, "to_onnx_tensor");
}

}  // namespace onnxscript::serde
