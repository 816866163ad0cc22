#pragma once
// Type and shape inference for one node as it is recorded, through libonnx's
// per-operator inference functions (opsets it knows: ai.onnx <= 17,
// ai.onnx.ml <= 3, preview.training 1). This is what lets a traced value know
// its element type and shape while the graph grows.

#include <cstdint>
#include <source_location>

#include "onnxscript/ir/graph.h"

namespace onnxscript::detail {

// Sets the types of `node`'s outputs from its inputs' types and attributes.
// Nodes of unknown operators, with graph attributes, or with attributes that
// refer to an enclosing function are left untyped. When every input type is
// known and libonnx rejects the node, throws ScriptError naming the operator,
// the input types, the rule broken and `location`.
void infer_node_outputs(ir::Node& node, int64_t opset_version,
                        const std::source_location& location);

}  // namespace onnxscript::detail
