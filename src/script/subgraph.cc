#include "script/subgraph.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "onnxscript/eval/session.h"
#include "onnxscript/ir/clone.h"
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

using ir::clone_attribute;
using ir::clone_graph;
using ir::ValueMap;

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
    model.functions().push_back(ir::clone_function(fn));
  }
  model.ir_version = 10;

  eval::SessionOptions options;
  options.check_inputs = false;
  eval::Session session(std::move(model), options);
  return session.run(given);
}

}  // namespace onnxscript::detail
