#include "onnxscript/serde/check.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "onnxscript/serde/serde.h"

namespace onnxscript::serde {

CheckResult check_model(const ir::Model& model) {
  CheckResult result;
  if (model.ir_version > kLibonnxMaxIrVersion) {
    result.skipped_reason = fmt::format(
        "IR version {} is newer than libonnx 1.12 can check (it knows IR <= {})", model.ir_version,
        kLibonnxMaxIrVersion);
    return result;
  }
  if (auto opset = model.opset_imports.find(""); opset && *opset > kLibonnxMaxOpset) {
    result.skipped_reason = fmt::format(
        "opset {} is newer than libonnx 1.12 knows (it knows ai.onnx opsets <= {})", *opset,
        kLibonnxMaxOpset);
    return result;
  }
  result.checked = true;
  // Our wire bytes are ONNX bytes, so libonnx's classes parse them directly.
  onnx::ModelProto proto;
  if (!proto.ParseFromString(serialize_model(model))) {
    result.errors.push_back("libonnx could not parse the serialized model");
    return result;
  }
  try {
    onnx::checker::check_model(proto);
  } catch (const std::exception& e) {
    result.errors.push_back(fmt::format("checker: {}", e.what()));
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    result.errors.push_back(fmt::format("shape inference: {}", e.what()));
  }
  return result;
}

}  // namespace onnxscript::serde
