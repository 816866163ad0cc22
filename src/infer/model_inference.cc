// Whole-model inference through libonnx 1.12 (opsets <= 17), for the types of
// a model's outputs that building could not give.

#include <algorithm>

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::infer {

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
  if (auto opset = model.opset_imports.find(""); opset && *opset > serde::kLibonnxMaxOpset) return;

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
