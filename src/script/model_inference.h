#pragma once
// Type inference for exported models, through libonnx 1.12 (opsets <= 17).

#include "onnxscript/ir/model.h"

namespace onnxscript::detail {

/// Fills in the types of the main graph's outputs that have none, using
/// libonnx's shape inference over the whole model (functions included).
/// Leaves them untyped when libonnx cannot infer them or knows not the opset.
void infer_model_types(ir::Model& model);

}  // namespace onnxscript::detail
