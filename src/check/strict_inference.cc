// Strict inference: each node of a copy of the model is typed by
// onnxscript::infer in order, and the declared types must agree with what the
// rules infer.

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "check/validator.h"
#include "onnxscript/infer/infer.h"

namespace onnxscript::check::detail {

namespace {

// Why two types of one value cannot both hold, or empty when they can: kinds,
// element types, ranks and static dimensions must agree where both are known.
std::string contradiction(const ir::Type& declared, const ir::Type& inferred) {
  if (declared.kind == ir::TypeKind::kUnspecified || inferred.kind == ir::TypeKind::kUnspecified)
    return "";
  if (declared.kind != inferred.kind) return "the kinds differ";
  if (declared.elem_type != ir::DataType::kUndefined &&
      inferred.elem_type != ir::DataType::kUndefined && declared.elem_type != inferred.elem_type)
    return "the element types differ";
  if (declared.shape && inferred.shape) {
    if (declared.shape->size() != inferred.shape->size()) return "the ranks differ";
    for (size_t i = 0; i < declared.shape->size(); ++i) {
      const ir::Dim& a = (*declared.shape)[i];
      const ir::Dim& b = (*inferred.shape)[i];
      if (a.is_static() && b.is_static() && a.value() != b.value())
        return fmt::format("dimension {} differs", i);
    }
  }
  if (declared.element && inferred.element)
    return contradiction(*declared.element, *inferred.element);
  return "";
}

// The more informative of two agreeing types: what inference found, unless
// the declaration knows a shape it does not.
const ir::Type& richer(const ir::Type& declared, const ir::Type& inferred) {
  if (inferred.kind == ir::TypeKind::kUnspecified) return declared;
  if (declared.shape && !inferred.shape) return declared;
  return inferred;
}

// Each value of the original and enclosing graphs and its copy.
using ValueMap = std::unordered_map<const ir::Value*, ir::Value*>;

ir::Value* copy_of(const ir::Value* v, ir::Graph& out, ValueMap& values) {
  if (!v) return nullptr;
  if (auto it = values.find(v); it != values.end()) return it->second;
  // A name that resolves to nothing defined: the structural checks reported
  // it; a detached value of that name keeps the copy whole.
  ir::Value* detached = out.create_detached_value(v->name());
  detached->set_type(v->type());
  values[v] = detached;
  return detached;
}

// Copies `g` into the empty `out`: inputs, initializers (sharing storage),
// nodes with their names, types and attributes, subgraphs deeply, outputs.
void copy_graph(const ir::Graph& g, ir::Graph& out, ValueMap& values) {
  for (const ir::Value* v : g.inputs()) values[v] = out.add_input(v->name(), v->type());
  for (const ir::Value* v : g.initializers()) {
    if (!v->const_value()) continue;
    auto it = values.find(v);
    if (it != values.end() && it->second->is_graph_input()) {
      out.set_initializer(it->second, *v->const_value());
    } else {
      ir::Value* c = out.add_initializer(v->name(), *v->const_value());
      if (v->type()) c->set_type(v->type());
      values[v] = c;
    }
  }
  for (const ir::Value* v : g.sparse_initializers())
    if (v->sparse_value() && !values.count(v))
      values[v] = out.add_sparse_initializer(v->name(), *v->sparse_value());
  for (const ir::Node* n : g.nodes()) {
    std::vector<ir::Value*> inputs;
    for (const ir::Value* v : n->inputs()) inputs.push_back(copy_of(v, out, values));
    ir::Node* c = out.append_node(n->op_type(), inputs, n->outputs().size(), n->domain());
    if (!n->name().empty()) c->set_name(n->name());
    if (!n->overload().empty()) c->set_overload(n->overload());
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      const ir::Value* o = n->output(i);
      if (!o) continue;
      c->output(i)->set_name(o->name());
      c->output(i)->set_type(o->type());
      values[o] = c->output(i);
    }
    for (const ir::Attribute& a : n->attributes()) {
      ir::Attribute attribute = a;
      auto copy_subgraph = [&](const std::shared_ptr<ir::Graph>& sub) {
        if (!sub) return sub;
        auto copied = std::make_shared<ir::Graph>(sub->name());
        copy_graph(*sub, *copied, values);
        return copied;
      };
      if (!a.is_reference() && a.type == ir::AttributeType::kGraph) {
        attribute.value = copy_subgraph(a.as_graph());
      } else if (!a.is_reference() && a.type == ir::AttributeType::kGraphs) {
        std::vector<std::shared_ptr<ir::Graph>> graphs;
        for (const auto& sub : a.as_graphs()) graphs.push_back(copy_subgraph(sub));
        attribute.value = std::move(graphs);
      }
      c->set_attribute(std::move(attribute));
    }
  }
  for (const ir::Value* v : g.outputs())
    if (v) out.outputs().push_back(copy_of(v, out, values));
}

class StrictInference {
 public:
  explicit StrictInference(std::vector<std::string>& errors) : errors_(errors) {}

  void graph(ir::Graph& g, const OpsetMap& opsets, const std::string& where) {
    size_t index = 0;
    for (ir::Node* node : g.nodes()) {
      const std::string at = fmt::format("{}: {}", where, describe_node(*node, index++));
      for (const ir::Attribute& a : node->attributes()) {
        if (a.is_reference()) continue;
        if (a.type == ir::AttributeType::kGraph && a.as_graph())
          graph(*a.as_graph(), opsets, fmt::format("{} attribute '{}'", at, a.name));
        if (a.type == ir::AttributeType::kGraphs)
          for (size_t k = 0; k < a.as_graphs().size(); ++k)
            if (a.as_graphs()[k])
              graph(*a.as_graphs()[k], opsets, fmt::format("{} attribute '{}'[{}]", at, a.name, k));
      }
      const auto version = opsets.find(std::string(normalize_domain(node->domain())));
      if (version == opsets.end()) continue;  // reported by the structural checks
      node_(*node, version->second, at);
    }
  }

 private:
  void node_(ir::Node& node, int64_t version, const std::string& at) {
    std::vector<std::optional<ir::Type>> declared;
    for (const ir::Value* out : node.outputs())
      declared.push_back(out ? out->type() : std::nullopt);
    try {
      infer::infer_node_outputs(node, version);
    } catch (const Error& e) {
      errors_.push_back(fmt::format("{}: strict inference rejects the node: {}", at, e.what()));
      return;
    }
    for (size_t i = 0; i < declared.size(); ++i) {
      ir::Value* out = node.output(i);
      if (!out || !declared[i]) continue;
      const std::optional<ir::Type> inferred = out->type();
      if (!inferred) {
        out->set_type(declared[i]);
        continue;
      }
      const std::string why = contradiction(*declared[i], *inferred);
      if (!why.empty()) {
        errors_.push_back(
            fmt::format("{}: output {} '{}' is declared {} but inference gives {} ({})", at, i,
                        out->name(), declared[i]->to_string(), inferred->to_string(), why));
        continue;
      }
      out->set_type(richer(*declared[i], *inferred));
    }
  }

  std::vector<std::string>& errors_;
};

}  // namespace

void check_strict_inference(const ir::Model& model, std::vector<std::string>& errors) {
  // Inference writes the types it finds into the nodes' outputs; the caller's
  // model stays as it is, so work on a copy. The copy shares the tensors'
  // storage, so it costs the graph's structure, not its weights (a model over
  // protobuf's 2 GB limit included).
  ir::Model copy;
  copy.ir_version = model.ir_version;
  copy.opset_imports = model.opset_imports;
  ValueMap values;
  copy_graph(model.graph(), copy.graph(), values);
  const size_t before = errors.size();
  StrictInference(errors).graph(copy.graph(), opset_map(copy.opset_imports), "main graph");
  // The inferred types meet the schemas too: a Constant-1 holding int64 is
  // typed tensor(int64), which its type parameter does not allow. The caller
  // checked the declared types already, so what this pass finds is new.
  if (errors.size() == before) validate_structure_and_schemas(copy, errors);
}

}  // namespace onnxscript::check::detail
