// Whole-model inference for the types of a model's outputs that building
// could not give: through libonnx 1.12 for opsets it knows (<= 17), and node
// by node through infer_node_outputs (the rules beyond libonnx) otherwise.

#include <algorithm>

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::infer {

namespace {

// Types every node of `g` in order, bodies before the node that holds them;
// `opsets` gives each domain's version. Nodes a rule cannot type stay
// untyped, and so does everything computed from them.
void infer_graph_in_order(ir::Graph& g, const ir::OpsetImports& opsets) {
  for (ir::Node* node : g.nodes()) {
    for (ir::Graph* body : node->subgraphs()) infer_graph_in_order(*body, opsets);
    const std::optional<int64_t> version = opsets.find(node->domain());
    if (!version) continue;  // a model-local function's call: not typed here
    infer_node_outputs(*node, *version);
  }
}

// Opset 18 and later: libonnx does not know them, so the rules run node by
// node on a copy of the model (the caller's intermediate values keep the
// types building gave them).
template <typename Complete>
void infer_beyond_libonnx(ir::Model& model, Complete complete) {
  try {
    ir::Model copy = serde::load_model_from_bytes(serde::serialize_model(model), {}, "<inferred>");
    infer_graph_in_order(copy.graph(), copy.opset_imports);
    auto& outputs = model.graph().outputs();
    const auto& inferred = copy.graph().outputs();
    for (size_t i = 0; i < outputs.size() && i < inferred.size(); ++i) {
      if (complete(outputs[i])) continue;
      const std::optional<ir::Type>& t = inferred[i]->type();
      if (t && t->kind != ir::TypeKind::kUnspecified) outputs[i]->set_type(t);
    }
  } catch (const std::exception&) {
    return;  // the checker reports the problem when the user runs it
  }
}

}  // namespace

void infer_model_output_types(ir::Model& model) {
  auto& outputs = model.graph().outputs();
  // A tensor output also needs its rank: the checker requires a shape on the
  // main graph's outputs, and a call node or a loop may leave only the
  // element type known while building.
  auto complete = [](const ir::Value* v) {
    return v->type() && v->type()->kind != ir::TypeKind::kUnspecified &&
           (!v->type()->is_tensor() || v->type()->shape);
  };
  const bool all_typed = std::all_of(outputs.begin(), outputs.end(), complete);
  if (all_typed) return;
  if (auto opset = model.opset_imports.find(""); opset && *opset > serde::kLibonnxMaxOpset) {
    infer_beyond_libonnx(model, complete);
    return;
  }

  onnx::ModelProto proto;
  if (!proto.ParseFromString(serde::serialize_model(model))) return;
  try {
    onnx::shape_inference::InferShapes(
        proto, onnx::OpSchemaRegistry::Instance(),
        onnx::ShapeInferenceOptions(/*check_type_val=*/false, /*strict_mode_val=*/0,
                                    /*data_prop_val=*/true));
  } catch (const std::exception&) {
    return;  // the checker reports the problem when the user runs it
  }
  // Read the inferred value_info back through our own reader.
  const ir::Model inferred =
      serde::load_model_from_bytes(proto.SerializeAsString(), {}, "<inferred>");
  const ir::Graph& g = inferred.graph();
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (complete(outputs[i])) continue;
    const std::string& name = outputs[i]->name();
    for (const ir::Value* v : g.value_info()) {
      if (v->name() == name && complete(v)) outputs[i]->set_type(v->type());
    }
    if (i < g.outputs().size() && g.outputs()[i]->name() == name && complete(g.outputs()[i]) &&
        !complete(outputs[i])) {
      outputs[i]->set_type(g.outputs()[i]->type());
    }
    // Failing a shape, an element type alone is a valid type, and better than none.
    if (!outputs[i]->type() || outputs[i]->type()->kind == ir::TypeKind::kUnspecified) {
      auto partial = [&](const ir::Value* v) {
        return v->name() == name && v->type() && v->type()->kind != ir::TypeKind::kUnspecified;
      };
      for (const ir::Value* v : g.value_info())
        if (partial(v)) outputs[i]->set_type(v->type());
      if (i < g.outputs().size() && partial(g.outputs()[i]) && !outputs[i]->type())
        outputs[i]->set_type(g.outputs()[i]->type());
    }
  }
}

}  // namespace onnxscript::infer
