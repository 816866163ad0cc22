#include "onnxscript/ir/clone.h"

#include <unordered_set>

namespace onnxscript::ir {

void copy_value_info(const Value& from, Value& to) {
  to.set_type(from.type());
  to.set_doc_string(from.doc_string());
  to.set_metadata_props(from.metadata_props());
  to.set_unknown_fields(from.unknown_fields());
}

Attribute clone_attribute(const Attribute& a, ValueMap& map, const Renamer& rename) {
  if (a.is_reference()) return a;
  if (a.type == AttributeType::kGraph && a.as_graph()) {
    Attribute copy = Attribute::make_graph(a.name, clone_graph(*a.as_graph(), map, rename));
    copy.doc_string = a.doc_string;
    return copy;
  }
  if (a.type == AttributeType::kGraphs) {
    std::vector<std::shared_ptr<Graph>> graphs;
    for (const auto& g : a.as_graphs())
      graphs.push_back(g ? clone_graph(*g, map, rename) : nullptr);
    Attribute copy(a.name, AttributeType::kGraphs, std::move(graphs));
    copy.doc_string = a.doc_string;
    return copy;
  }
  return a;
}

Node* clone_node(const Node& n, Graph& g, Node* position, ValueMap& map, const Renamer& rename) {
  auto lookup = [&](Value* v) -> Value* {
    if (!v) return nullptr;
    auto it = map.find(v);
    return it == map.end() ? v : it->second;
  };
  // Subgraphs first: a trace records them before their node, so their
  // names come first in the copy too.
  std::vector<Attribute> attributes;
  attributes.reserve(n.attributes().size());
  for (const Attribute& a : n.attributes()) attributes.push_back(clone_attribute(a, map, rename));
  std::vector<Value*> inputs;
  inputs.reserve(n.inputs().size());
  for (Value* in : n.inputs()) inputs.push_back(lookup(in));
  Node* copy = position
                   ? g.insert_node_before(position, n.op_type(), std::move(inputs),
                                          n.outputs().size(), n.domain())
                   : g.append_node(n.op_type(), std::move(inputs), n.outputs().size(), n.domain());
  copy->set_name(n.name());
  copy->set_overload(n.overload());
  copy->set_doc_string(n.doc_string());
  copy->set_metadata_props(n.metadata_props());
  if (!n.device_configurations().empty())
    copy->mutable_device_configurations() = n.device_configurations();
  copy->set_unknown_fields(n.unknown_fields());
  copy->origin = n.origin;
  for (Attribute& a : attributes) copy->set_attribute(std::move(a));
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    const Value* out = n.output(i);
    Value* out_copy = copy->output(i);
    if (!out->name().empty()) out_copy->set_name(rename(out->name()));
    copy_value_info(*out, *out_copy);
    map[out] = out_copy;
  }
  return copy;
}

void clone_graph_into(const Graph& src, Graph& g, ValueMap& map, const Renamer& rename) {
  g.doc_string = src.doc_string;
  g.metadata_props = src.metadata_props;
  g.unknown_fields = src.unknown_fields;
  auto lookup = [&](Value* v) -> Value* {
    if (!v) return nullptr;
    auto it = map.find(v);
    return it == map.end() ? v : it->second;
  };
  for (Value* in : src.inputs()) {
    Value* copy = g.add_input(rename(in->name()), in->type());
    copy_value_info(*in, *copy);
    if (const Tensor* t = in->const_value()) g.set_initializer(copy, *t);
    map[in] = copy;
  }
  for (Value* init : src.initializers()) {
    if (map.count(init)) continue;  // an input with a default, copied above
    Value* copy = g.add_initializer(rename(init->name()), *init->const_value());
    copy_value_info(*init, *copy);
    map[init] = copy;
  }
  for (Value* init : src.sparse_initializers()) {
    Value* copy = g.add_sparse_initializer(rename(init->name()), *init->sparse_value());
    copy_value_info(*init, *copy);
    map[init] = copy;
  }
  for (const Node* n : src.nodes()) clone_node(*n, g, nullptr, map, rename);
  for (Value* v : src.value_info()) {
    auto it = map.find(v);
    if (it != map.end()) g.value_info().push_back(it->second);
  }
  for (Value* out : src.outputs()) g.outputs().push_back(lookup(out));
  // Annotations name tensors: each name follows its value's renaming.
  auto renamed = [&](const std::string& name) {
    for (const auto& [from, to] : map)
      if (from->graph() == &src && from->name() == name) return to->name();
    return name;
  };
  for (const QuantizationAnnotation& qa : src.quantization_annotation) {
    QuantizationAnnotation copy{renamed(qa.tensor_name), {}};
    for (const auto& [role, tensor] : qa.quant_parameter_tensor_names)
      copy.quant_parameter_tensor_names.emplace_back(role, renamed(tensor));
    g.quantization_annotation.push_back(std::move(copy));
  }
}

std::shared_ptr<Graph> clone_graph(const Graph& src, ValueMap& map, const Renamer& rename) {
  auto g = std::make_shared<Graph>(src.name());
  clone_graph_into(src, *g, map, rename);
  return g;
}

std::unique_ptr<Function> clone_function(const Function& fn) {
  auto copy = std::make_unique<Function>(fn.domain, fn.name);
  copy->overload = fn.overload;
  copy->attribute_names = fn.attribute_names;
  copy->attribute_defaults = fn.attribute_defaults;
  copy->opset_imports = fn.opset_imports;
  copy->doc_string = fn.doc_string;
  copy->metadata_props = fn.metadata_props;
  copy->unknown_fields = fn.unknown_fields;
  ValueMap map;
  clone_graph_into(fn.body(), copy->body(), map, [](const std::string& name) { return name; });
  return copy;
}

Model clone_model(const Model& model) {
  Model copy;
  copy.ir_version = model.ir_version;
  copy.opset_imports = model.opset_imports;
  copy.producer_name = model.producer_name;
  copy.producer_version = model.producer_version;
  copy.domain = model.domain;
  copy.model_version = model.model_version;
  copy.doc_string = model.doc_string;
  copy.metadata_props = model.metadata_props;
  copy.training_info = model.training_info;
  copy.configuration = model.configuration;
  copy.unknown_fields = model.unknown_fields;
  ValueMap map;
  clone_graph_into(model.graph(), copy.graph(), map, [](const std::string& name) { return name; });
  for (const auto& f : model.functions()) copy.functions().push_back(clone_function(*f));
  return copy;
}

const std::vector<const Value*>& FreeValues::of(const Graph& graph) {
  auto it = cache_.find(&graph);
  if (it != cache_.end()) return it->second;
  std::vector<const Value*> out;
  std::unordered_set<const Value*> seen;
  auto add = [&](const Value* v) {
    if (v && v->graph() != &graph && seen.insert(v).second) out.push_back(v);
  };
  for (const Node* node : graph.nodes()) {
    for (const Value* v : node->inputs()) add(v);
    for (const Graph* sub : node->subgraphs())
      for (const Value* v : of(*sub)) add(v);
  }
  for (const Value* v : graph.outputs()) add(v);
  return cache_.emplace(&graph, std::move(out)).first->second;
}

}  // namespace onnxscript::ir
