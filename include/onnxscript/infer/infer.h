#pragma once
/// \file
/// Type and shape inference: one layer below the eDSL that everything which
/// types a graph calls (the eDSL while recording nodes, save() for a model's
/// outputs, and later `check`, the Session, the optimizer and the exporter).
/// The rules: libonnx 1.12's for the opsets it knows (ai.onnx <= 17,
/// ai.onnx.ml <= 3, ai.onnx.preview.training 1); beyond them (ai.onnx 18 to
/// 28, ai.onnx.ml 4 and 5, ai.onnx.preview 1), one rule per operator version
/// that came later (a libonnx rule that still holds, or the project's own,
/// src/infer/rules_beyond_libonnx.cc), and libonnx's newest for operators
/// unchanged since; the project's own for control flow.

#include <cstdint>
#include <optional>

#include "onnxscript/ir/graph.h"
#include "onnxscript/ir/model.h"
#include "onnxscript/support/error.h"

namespace onnxscript::infer {

/// A node that inference rejects although every input type is known: the
/// message names the operator, its input types and the rule broken (callers
/// add where the node came from).
class InferenceError : public ValidationError {
 public:
  using ValidationError::ValidationError;
};

/// Sets the types of `node`'s outputs from its inputs' types, its attributes
/// and the data of small constant inputs, with the rule of its operator at
/// `opset_version` (the version of the node's domain). Control-flow nodes are
/// typed from their bodies. Nodes of operators without a rule (custom
/// domains), or with attributes that refer to an enclosing function, are left
/// untyped; so is a node a rule rejects while some input type is unknown. An
/// output whose shape depends on data that is not a constant gets its
/// element type (and its rank where that is known). Results are
/// memoized per thread by signature. Throws InferenceError when a rule
/// rejects a node whose input types are all known.
void infer_node_outputs(ir::Node& node, int64_t opset_version);

/// Types the outputs of an If, Loop, Scan or SequenceMap node from its inputs
/// and bodies. Other nodes are left alone.
void type_from_subgraphs(ir::Node& node);

/// The union of two types of one value (If branches, loop iterations): the
/// common element type, and dimensions kept where they agree. Nullopt when
/// either is unknown; `conflict` is set when the kinds or element types differ.
std::optional<ir::Type> merge_types(const std::optional<ir::Type>& a,
                                    const std::optional<ir::Type>& b, bool* conflict = nullptr);

/// Fills in the types of the main graph's outputs that have none or no rank,
/// by whole-model inference: libonnx's (functions included) when every
/// opset is one libonnx knows; otherwise (ai.onnx 18 or later, ai.onnx.ml 4
/// or later, ai.onnx.preview) infer_node_outputs node by node on a copy of
/// the model (the model's intermediate values keep their types), with each
/// call of a model-local function typed from its body at the call's input
/// types. An element type without a shape
/// is kept when no shape can be inferred.
void infer_model_output_types(ir::Model& model);

}  // namespace onnxscript::infer
