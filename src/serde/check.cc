#include "onnxscript/serde/check.h"

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "onnxscript/serde/serde.h"

namespace onnxscript::serde {

std::optional<std::string> beyond_libonnx(const ir::Model& model) {
  if (model.ir_version > kLibonnxMaxIrVersion) {
    return fmt::format("IR version {} is newer than libonnx 1.12 can check (it knows IR <= {})",
                       model.ir_version, kLibonnxMaxIrVersion);
  }
  // The ML and training domains of libonnx 1.12 stop at ai.onnx.ml 3 and
  // ai.onnx.preview.training 1; its checker rejects newer imports outright.
  for (const auto& [domain, version] : model.opset_imports.entries()) {
    int64_t known = 0;
    if (domain.empty() || domain == "ai.onnx")
      known = kLibonnxMaxOpset;
    else if (domain == "ai.onnx.ml")
      known = 3;
    else if (domain == "ai.onnx.preview.training")
      known = 1;
    else
      continue;  // a custom domain: libonnx skips its nodes
    if (version > known) {
      return fmt::format("opset {} {} is newer than libonnx 1.12 knows (it knows {} <= {})",
                         domain.empty() ? "ai.onnx" : domain, version,
                         domain.empty() ? "ai.onnx" : domain, known);
    }
  }
  return std::nullopt;
}

std::vector<std::string> check_with_libonnx(const ir::Model& model) {
  std::vector<std::string> errors;
  // Our wire bytes are ONNX bytes, so libonnx's classes parse them directly.
  onnx::ModelProto proto;
  std::string bytes;
  try {
    bytes = serialize_model(model);
  } catch (const std::exception& e) {
    // A model whose names do not resolve (an undefined input, a name given
    // twice) has no ONNX bytes to offer libonnx.
    errors.push_back(fmt::format("libonnx checker: the model cannot be serialized: {}", e.what()));
    return errors;
  }
  if (!proto.ParseFromString(bytes)) {
    errors.push_back("libonnx could not parse the serialized model");
    return errors;
  }
  try {
    onnx::checker::check_model(proto);
  } catch (const std::exception& e) {
    errors.push_back(fmt::format("libonnx checker: {}", e.what()));
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    errors.push_back(fmt::format("libonnx shape inference: {}", e.what()));
  }
  return errors;
}

}  // namespace onnxscript::serde
