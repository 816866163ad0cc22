#include "script/subgraph.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "onnxscript/eval/session.h"
#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"

namespace onnxscript::detail {

namespace {

// The deleter of a detached graph's shared_ptr carries its info, so that any
// copy of the pointer (an ir::Attribute holds one) leads back to it through
// std::get_deleter, without a registry.
struct DetachedDeleter {
  std::shared_ptr<DetachedGraphInfo> info;
  void operator()(ir::Graph* graph) const { delete graph; }
};

template <typename Fn>
void for_each_graph(std::span<const ir::Attribute> attributes, Fn fn) {
  for (const ir::Attribute& a : attributes) {
    if (a.is_reference()) continue;
    if (a.type == ir::AttributeType::kGraph) {
      if (a.as_graph()) fn(a.as_graph());
    } else if (a.type == ir::AttributeType::kGraphs) {
      for (const auto& g : a.as_graphs())
        if (g) fn(g);
    }
  }
}

using ValueMap = std::unordered_map<const ir::Value*, ir::Value*>;
using Renamer = std::function<std::string(const std::string&)>;

void copy_value_info(const ir::Value& from, ir::Value& to) {
  to.set_type(from.type());
  to.set_doc_string(from.doc_string());
  to.set_metadata_props(from.metadata_props());
  to.set_unknown_fields(from.unknown_fields());
}

std::shared_ptr<ir::Graph> clone_graph(const ir::Graph& src, ValueMap& map, const Renamer& rename);

ir::Attribute clone_attribute(const ir::Attribute& a, ValueMap& map, const Renamer& rename) {
  if (a.is_reference()) return a;
  if (a.type == ir::AttributeType::kGraph && a.as_graph()) {
    ir::Attribute copy = ir::Attribute::make_graph(a.name, clone_graph(*a.as_graph(), map, rename));
    copy.doc_string = a.doc_string;
    return copy;
  }
  if (a.type == ir::AttributeType::kGraphs) {
    std::vector<std::shared_ptr<ir::Graph>> graphs;
    for (const auto& g : a.as_graphs())
      graphs.push_back(g ? clone_graph(*g, map, rename) : nullptr);
    ir::Attribute copy(a.name, ir::AttributeType::kGraphs, std::move(graphs));
    copy.doc_string = a.doc_string;
    return copy;
  }
  return a;
}

// Copies `src` into the empty graph `g`. Values of `src` (and of its
// subgraphs) are renamed through `rename`; references to values outside
// `src` stay as they are.
void clone_into(const ir::Graph& src, ir::Graph& g, ValueMap& map, const Renamer& rename) {
  g.doc_string = src.doc_string;
  g.metadata_props = src.metadata_props;
  g.unknown_fields = src.unknown_fields;
  auto lookup = [&](ir::Value* v) -> ir::Value* {
    if (!v) return nullptr;
    auto it = map.find(v);
    return it == map.end() ? v : it->second;
  };
  for (ir::Value* in : src.inputs()) {
    ir::Value* copy = g.add_input(rename(in->name()), in->type());
    copy_value_info(*in, *copy);
    if (const ir::Tensor* t = in->const_value()) g.set_initializer(copy, *t);
    map[in] = copy;
  }
  for (ir::Value* init : src.initializers()) {
    if (map.count(init)) continue;
    ir::Value* copy = g.add_initializer(rename(init->name()), *init->const_value());
    copy_value_info(*init, *copy);
    map[init] = copy;
  }
  for (ir::Value* init : src.sparse_initializers()) {
    ir::Value* copy = g.add_sparse_initializer(rename(init->name()), *init->sparse_value());
    copy_value_info(*init, *copy);
    map[init] = copy;
  }
  for (const ir::Node* n : src.nodes()) {
    // Subgraphs first: they were traced before their node, so their names
    // come first in the copy too.
    std::vector<ir::Attribute> attributes;
    attributes.reserve(n->attributes().size());
    for (const ir::Attribute& a : n->attributes())
      attributes.push_back(clone_attribute(a, map, rename));
    std::vector<ir::Value*> inputs;
    inputs.reserve(n->inputs().size());
    for (ir::Value* in : n->inputs()) inputs.push_back(lookup(in));
    ir::Node* copy =
        g.append_node(n->op_type(), std::move(inputs), n->outputs().size(), n->domain());
    copy->set_name(n->name());
    copy->set_overload(n->overload());
    copy->set_doc_string(n->doc_string());
    copy->set_metadata_props(n->metadata_props());
    if (!n->device_configurations().empty())
      copy->mutable_device_configurations() = n->device_configurations();
    copy->set_unknown_fields(n->unknown_fields());
    copy->origin = n->origin;
    for (ir::Attribute& a : attributes) copy->set_attribute(std::move(a));
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      const ir::Value* out = n->output(i);
      ir::Value* out_copy = copy->output(i);
      if (!out->name().empty()) out_copy->set_name(rename(out->name()));
      copy_value_info(*out, *out_copy);
      map[out] = out_copy;
    }
  }
  for (ir::Value* v : src.value_info()) {
    auto it = map.find(v);
    if (it != map.end()) g.value_info().push_back(it->second);
  }
  for (ir::Value* out : src.outputs()) g.outputs().push_back(lookup(out));
  // Annotations name tensors: each name follows its value's renaming.
  auto renamed = [&](const std::string& name) {
    for (const auto& [from, to] : map)
      if (from->graph() == &src && from->name() == name) return to->name();
    return name;
  };
  for (const ir::QuantizationAnnotation& qa : src.quantization_annotation) {
    ir::QuantizationAnnotation copy{renamed(qa.tensor_name), {}};
    for (const auto& [role, tensor] : qa.quant_parameter_tensor_names)
      copy.quant_parameter_tensor_names.emplace_back(role, renamed(tensor));
    g.quantization_annotation.push_back(std::move(copy));
  }
}

std::shared_ptr<ir::Graph> clone_graph(const ir::Graph& src, ValueMap& map, const Renamer& rename) {
  auto g = std::make_shared<ir::Graph>(src.name());
  clone_into(src, *g, map, rename);
  return g;
}

// A name for a copy placed into the trace: the same stem, a fresh number.
std::string fresh_copy_name(TraceScope& scope, const std::string& name) {
  std::string_view stem = name;
  const size_t underscore = stem.rfind('_');
  auto all_digits = [](std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (underscore != std::string_view::npos && all_digits(stem.substr(underscore + 1))) {
    stem = stem.substr(0, underscore);
  } else if (stem.size() > 1 && stem[0] == 't' && all_digits(stem.substr(1))) {
    return scope.fresh_name();
  }
  return scope.fresh_name(stem);
}

// Every (domain, version) a graph's nodes use, for graphs without recorded
// opsets: ai.onnx at `onnx_version`, other domains at 1.
void collect_domains(const ir::Graph& g, int64_t onnx_version, ir::OpsetImports& opsets) {
  for (const ir::Node* n : g.nodes()) {
    const std::string domain = n->domain() == "ai.onnx" ? "" : n->domain();
    if (!opsets.find(domain)) opsets.set(domain, domain.empty() ? onnx_version : 1);
    for (const ir::Graph* sub : n->subgraphs()) collect_domains(*sub, onnx_version, opsets);
  }
}

std::unique_ptr<ir::Function> copy_function(const ir::Function& fn) {
  auto copy = std::make_unique<ir::Function>(fn.domain, fn.name);
  copy->overload = fn.overload;
  copy->attribute_names = fn.attribute_names;
  copy->attribute_defaults = fn.attribute_defaults;
  copy->opset_imports = fn.opset_imports;
  copy->doc_string = fn.doc_string;
  ValueMap map;
  clone_into(fn.body(), copy->body(), map, [](const std::string& name) { return name; });
  return copy;
}

}  // namespace

std::shared_ptr<ir::Graph> make_detached_graph(std::string name,
                                               std::shared_ptr<DetachedGraphInfo> info) {
  return std::shared_ptr<ir::Graph>(new ir::Graph(std::move(name)),
                                    DetachedDeleter{std::move(info)});
}

const DetachedGraphInfo* detached_info(const std::shared_ptr<ir::Graph>& graph) {
  const auto* deleter = std::get_deleter<DetachedDeleter>(graph);
  return deleter ? deleter->info.get() : nullptr;
}

bool has_graph_attribute(std::span<const ir::Attribute> attributes) {
  for (const ir::Attribute& a : attributes) {
    if (a.type == ir::AttributeType::kGraph || a.type == ir::AttributeType::kGraphs) return true;
  }
  return false;
}

bool has_attached_graph(std::span<const ir::Attribute> attributes) {
  bool attached = false;
  for_each_graph(attributes, [&](const std::shared_ptr<ir::Graph>& g) {
    attached |= detached_info(g) == nullptr;
  });
  return attached;
}

void prepare_graph_attributes(std::vector<ir::Attribute>& attributes) {
  TraceScope* scope = TraceScope::current();
  if (!scope) return;
  for (ir::Attribute& a : attributes) {
    if (a.is_reference()) continue;
    auto place = [&](std::shared_ptr<ir::Graph>& g) {
      const DetachedGraphInfo* info = g ? detached_info(g) : nullptr;
      if (!info) return;
      for (const auto& [domain, version] : info->opsets.entries())
        scope->use_opset(domain, version);
      note_callees(info->callees);
      ValueMap map;
      g = clone_graph(*g, map,
                      [&](const std::string& name) { return fresh_copy_name(*scope, name); });
    };
    if (a.type == ir::AttributeType::kGraph) {
      std::shared_ptr<ir::Graph> g = a.as_graph();
      place(g);
      a.value = std::move(g);
    } else if (a.type == ir::AttributeType::kGraphs) {
      std::vector<std::shared_ptr<ir::Graph>> graphs = a.as_graphs();
      for (auto& g : graphs) place(g);
      a.value = std::move(graphs);
    }
  }
}

std::vector<eval::RuntimeValue> run_with_subgraphs(std::string_view domain,
                                                   std::string_view op_type, int64_t opset_version,
                                                   std::span<const eval::RuntimeValue> inputs,
                                                   std::span<const ir::Attribute> attributes,
                                                   size_t num_outputs) {
  ir::Model model;
  model.producer_name = "onnxscript-cpp eager";
  ir::Graph& main = model.graph();
  main.set_name(fmt::format("eager_{}", op_type));
  model.opset_imports.set(std::string(domain), opset_version);

  std::vector<ir::Value*> node_inputs;
  std::vector<eval::RuntimeValue> given;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_none()) {
      node_inputs.push_back(nullptr);
      continue;
    }
    node_inputs.push_back(main.add_input(fmt::format("eager_input_{}", i), inputs[i].type()));
    given.push_back(inputs[i]);
  }

  // The body is copied (names kept) so that the caller's graph is not
  // re-parented to this temporary node.
  std::vector<Function> callees;
  auto keep_name = [](const std::string& name) { return name; };
  std::vector<ir::Attribute> node_attributes;
  for (const ir::Attribute& a : attributes) {
    ValueMap map;
    node_attributes.push_back(clone_attribute(a, map, keep_name));
  }
  for_each_graph(attributes, [&](const std::shared_ptr<ir::Graph>& g) {
    if (const DetachedGraphInfo* info = detached_info(g)) {
      for (const auto& [d, v] : info->opsets.entries())
        if (!model.opset_imports.find(d)) model.opset_imports.set(d, v);
      callees.insert(callees.end(), info->callees.begin(), info->callees.end());
    } else {
      collect_domains(*g, opset_version, model.opset_imports);
    }
  });

  ir::Node* node = main.append_node(std::string(op_type), std::move(node_inputs), num_outputs,
                                    std::string(domain));
  for (ir::Attribute& a : node_attributes) node->set_attribute(std::move(a));
  for (size_t i = 0; i < num_outputs; ++i) {
    node->output(i)->set_name(fmt::format("eager_output_{}", i));
    main.outputs().push_back(node->output(i));
  }

  // Script functions the bodies call, transitively, once each.
  std::vector<Function> all;
  auto add = [&](const Function& f) {
    for (const Function& g : all)
      if (g.domain() == f.domain() && g.name() == f.name()) return;
    all.push_back(f);
  };
  for (const Function& f : callees) {
    add(f);
    for (const Function& g : f.callees()) add(g);
  }
  for (const Function& f : all) {
    const ir::Function& fn = f.to_function();
    for (const auto& [d, v] : fn.opset_imports.entries())
      if (!model.opset_imports.find(d)) model.opset_imports.set(d, v);
    model.functions().push_back(copy_function(fn));
  }
  model.ir_version = 10;

  eval::SessionOptions options;
  options.check_inputs = false;
  eval::Session session(std::move(model), options);
  return session.run(given);
}

}  // namespace onnxscript::detail
