#pragma once
/// \file
/// Conversion between the IR and libonnx's `onnx::ModelProto`, to call the
/// ONNX checker and shape inference. Kept apart from serde.h so that only
/// code that wants libonnx pulls in its headers (link with the `onnx` target).
///
/// libonnx 1.12 knows IR version 8. Newer fields (overload, metadata_props
/// on nodes, function attribute defaults...) travel through it as unknown
/// fields, so a model survives to_onnx_proto then from_onnx_proto unchanged.

#include <filesystem>

#include <onnx/onnx_pb.h>

#include "onnxscript/ir/model.h"

namespace onnxscript::serde {

/// The model as libonnx's ModelProto, with all tensor data inline. Throws
/// Error when the model exceeds protobuf's 2 GB limit.
onnx::ModelProto to_onnx_proto(const ir::Model& model);

/// Reads a libonnx ModelProto into the IR. `base_dir` resolves external data
/// (empty: none allowed). Throws as load_model_from_bytes.
ir::Model from_onnx_proto(const onnx::ModelProto& proto,
                          const std::filesystem::path& base_dir = {});

/// A type as libonnx's TypeProto (for per-node shape inference).
onnx::TypeProto to_onnx_type(const ir::Type& type);

/// A libonnx TypeProto as an IR type.
ir::Type from_onnx_type(const onnx::TypeProto& proto);

/// A tensor as libonnx's TensorProto, data inline.
onnx::TensorProto to_onnx_tensor(const ir::Tensor& tensor);

}  // namespace onnxscript::serde
