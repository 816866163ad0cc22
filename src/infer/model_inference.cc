// Whole-model inference for the types of a model's outputs that building
// could not give: through libonnx 1.12 for opsets it knows (<= 17), and node
// by node through infer_node_outputs (the rules beyond libonnx) otherwise.

#include <algorithm>

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "infer/rules_beyond_libonnx.h"
#include "onnxscript/infer/infer.h"
#include "onnxscript/serde/check.h"
#include "onnxscript/serde/serde.h"

namespace onnxscript::infer {

namespace {

ir::Function* find_function(ir::Model& model, const ir::Node& node);
void type_call(ir::Node& call, ir::Function& callee, ir::Model& model, int depth);
void clear_node_types(ir::Graph& g);
void resolve_references(ir::Graph& g, const ir::Node& call, const ir::Function& callee,
                        std::vector<std::pair<ir::Node*, ir::Attribute>>& replaced);

// Gives the untyped inputs of a Loop, Scan or SequenceMap body the types the
// node's inputs imply, as ONNX's whole-model inference does: Loop's
// iteration number and condition, then the carried values' types; Scan's
// states, then each scan input without its scan axis; SequenceMap's
// sequence elements and the other inputs as they are. Bodies built with
// typed parameters keep their declared types.
void seed_body_inputs(const ir::Node& node, ir::Graph& body) {
  auto seed = [&](size_t i, std::optional<ir::Type> type) {
    if (i >= body.inputs().size() || !type) return;
    ir::Value* v = body.inputs()[i];
    if (!v->type() || v->type()->kind == ir::TypeKind::kUnspecified) v->set_type(std::move(type));
  };
  auto input_type = [&](size_t i) -> std::optional<ir::Type> {
    const ir::Value* v = i < node.inputs().size() ? node.input(i) : nullptr;
    return v ? v->type() : std::nullopt;
  };
  if (!node.domain().empty()) return;
  if (node.op_type() == "Loop") {
    seed(0, ir::Type::tensor(ir::DataType::kInt64, ir::Shape()));
    seed(1, ir::Type::tensor(ir::DataType::kBool, ir::Shape()));
    for (size_t i = 2; i < node.inputs().size(); ++i) seed(i, input_type(i));
  } else if (node.op_type() == "Scan") {
    const ir::Attribute* n_attr = node.attribute("num_scan_inputs");
    if (!n_attr || n_attr->is_reference()) return;
    const size_t num_scan = static_cast<size_t>(n_attr->as_int());
    if (num_scan > node.inputs().size()) return;
    const size_t num_states = node.inputs().size() - num_scan;
    const ir::Attribute* axes_attr = node.attribute("scan_input_axes");
    for (size_t i = 0; i < num_states; ++i) seed(i, input_type(i));
    for (size_t k = 0; k < num_scan; ++k) {
      std::optional<ir::Type> t = input_type(num_states + k);
      if (!t || !t->is_tensor()) continue;
      if (t->shape) {
        const int64_t rank = static_cast<int64_t>(t->shape->size());
        int64_t axis = 0;
        if (axes_attr && !axes_attr->is_reference() && k < axes_attr->as_ints().size())
          axis = axes_attr->as_ints()[k];
        if (axis < 0) axis += rank;
        if (axis < 0 || axis >= rank) continue;
        std::vector<ir::Dim> dims = t->shape->to_vector();
        dims.erase(dims.begin() + axis);
        t = ir::Type::tensor(t->elem_type, ir::Shape(dims));
      }
      seed(num_states + k, std::move(t));
    }
  } else if (node.op_type() == "SequenceMap") {
    for (size_t i = 0; i < node.inputs().size(); ++i) {
      std::optional<ir::Type> t = input_type(i);
      if (t && t->kind == ir::TypeKind::kSequence && t->element) t = *t->element;
      seed(i, std::move(t));
    }
  }
}

// Types every node of `g` in order, bodies before the node that holds them;
// `opsets` gives each domain's version. A call of a model-local function is
// typed by typing its body for the call's input types (`depth` bounds
// recursive functions). Nodes a rule cannot type stay untyped, and so does
// everything computed from them.
void infer_graph_in_order(ir::Graph& g, const ir::OpsetImports& opsets, ir::Model& model,
                          int depth) {
  for (ir::Node* node : g.nodes()) {
    for (ir::Graph* body : node->subgraphs()) {
      seed_body_inputs(*node, *body);
      infer_graph_in_order(*body, opsets, model, depth);
    }
    if (ir::Function* callee = find_function(model, *node)) {
      type_call(*node, *callee, model, depth);
      continue;
    }
    const std::optional<int64_t> version = opsets.find(node->domain());
    if (!version) continue;  // a domain the model does not import
    infer_node_outputs(*node, *version);
  }
}

ir::Function* find_function(ir::Model& model, const ir::Node& node) {
  for (auto& f : model.functions())
    if (f->domain == node.domain() && f->name == node.op_type() && f->overload == node.overload())
      return f.get();
  return nullptr;
}

// The body's inputs take the call's input types, its nodes are typed in
// order, and the call's outputs take the body's output types. The body is
// the copy's, so retyping it for each call changes nothing the caller sees.
// Attributes that refer to the call's leave their nodes untyped.
void type_call(ir::Node& call, ir::Function& callee, ir::Model& model, int depth) {
  constexpr int kMaxDepth = 16;
  if (depth >= kMaxDepth) return;
  ir::Graph& body = callee.body();
  clear_node_types(body);
  // The body's attribute references take the call's values (or the
  // function's defaults) while it is typed, and are put back afterwards:
  // SplitToSequence's axis, say, decides its output's rank.
  std::vector<std::pair<ir::Node*, ir::Attribute>> references;
  resolve_references(body, call, callee, references);
  for (size_t i = 0; i < body.inputs().size(); ++i) {
    const ir::Value* actual = i < call.inputs().size() ? call.input(i) : nullptr;
    body.inputs()[i]->set_type(actual ? actual->type() : std::nullopt);
  }
  infer_graph_in_order(body, callee.opset_imports, model, depth + 1);
  for (auto& [node, original] : references) node->set_attribute(std::move(original));
  for (size_t i = 0; i < call.outputs().size() && i < body.outputs().size(); ++i) {
    const std::optional<ir::Type>& t = body.outputs()[i]->type();
    if (t && t->kind != ir::TypeKind::kUnspecified) call.output(i)->set_type(t);
  }
}

// Replaces every attribute of `g`'s nodes (subgraphs included) that refers
// to an attribute of `callee` by the value `call` gives it, or the
// function's default; `replaced` keeps the originals. References with
// neither stay.
void resolve_references(ir::Graph& g, const ir::Node& call, const ir::Function& callee,
                        std::vector<std::pair<ir::Node*, ir::Attribute>>& replaced) {
  for (ir::Node* node : g.nodes()) {
    for (ir::Graph* body : node->subgraphs()) resolve_references(*body, call, callee, replaced);
    std::vector<ir::Attribute> resolved;
    for (const ir::Attribute& a : node->attributes()) {
      if (!a.is_reference()) continue;
      const ir::Attribute* value = call.attribute(a.ref_attr_name);
      if (!value) {
        for (const ir::Attribute& d : callee.attribute_defaults)
          if (d.name == a.ref_attr_name) value = &d;
      }
      if (!value || value->is_reference() || value->type != a.type) continue;
      ir::Attribute r = *value;
      r.name = a.name;
      replaced.emplace_back(node, a);
      resolved.push_back(std::move(r));
    }
    for (ir::Attribute& r : resolved) node->set_attribute(std::move(r));
  }
}

void clear_node_types(ir::Graph& g) {
  for (ir::Node* node : g.nodes()) {
    for (ir::Graph* body : node->subgraphs()) clear_node_types(*body);
    for (ir::Value* v : node->outputs()) v->set_type(std::nullopt);
  }
}

// Opset 18 and later: libonnx does not know them, so the rules run node by
// node on a copy of the model (the caller's intermediate values keep the
// types building gave them).
template <typename Complete>
void infer_beyond_libonnx(ir::Model& model, Complete complete) {
  try {
    ir::Model copy = serde::load_model_from_bytes(serde::serialize_model(model), {}, "<inferred>");
    infer_graph_in_order(copy.graph(), copy.opset_imports, copy, 0);
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
  // Any domain beyond libonnx (ai.onnx 18, ai.onnx.ml 4, ai.onnx.preview):
  // libonnx's whole-model inference would not know its operators. And a
  // main-graph input without a type (a script parameter declared as a plain
  // Value) crashes libonnx 1.12's whole-model inference (a null dereference
  // in ShapeInferenceImplBase::process): the node-by-node path serves both.
  const auto& imports = model.opset_imports.entries();
  const auto& inputs = model.graph().inputs();
  const bool untyped_input = std::any_of(inputs.begin(), inputs.end(), [](const ir::Value* v) {
    return !v->type() || v->type()->kind == ir::TypeKind::kUnspecified;
  });
  if (untyped_input || std::any_of(imports.begin(), imports.end(), [](const auto& entry) {
        const int64_t max = libonnx_max_version(entry.first);
        return (max > 0 && entry.second > max) || entry.first == "ai.onnx.preview";
      })) {
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
