// The bridge to libonnx goes through bytes: both sides speak the same wire
// format, and the two generated class families cannot share objects.

#include "onnxscript/serde/onnx_interop.h"

#include "onnxscript/serde/serde.h"

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

}  // namespace onnxscript::serde
