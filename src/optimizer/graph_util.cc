#include "optimizer/graph_util.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace onnxscript::optimizer::detail {

namespace {

void add_nested_first(ir::Graph& graph, ir::Function* function, bool is_main,
                      std::vector<GraphSite>& out) {
  for (ir::Node* node : graph.nodes())
    for (ir::Graph* sub : node->subgraphs()) add_nested_first(*sub, function, false, out);
  out.push_back({&graph, function, is_main});
}

}  // namespace

std::vector<GraphSite> graphs_inner_first(ir::Model& model) {
  std::vector<GraphSite> out;
  add_nested_first(model.graph(), nullptr, true, out);
  for (auto& f : model.functions()) add_nested_first(f->body(), f.get(), false, out);
  return out;
}

OuterOutputs::OuterOutputs(ir::Model& model) {
  for (const GraphSite& site : graphs_inner_first(model)) {
    bool any = false;
    for (const ir::Value* v : site.graph->outputs()) {
      if (v && v->graph() != site.graph) {
        values_.insert(v);
        any = true;
      }
    }
    if (any) graphs_.push_back(site.graph);
  }
}

void OuterOutputs::replace(const ir::Value* from, ir::Value* to) {
  if (!values_.count(from)) return;
  for (ir::Graph* g : graphs_)
    for (ir::Value*& v : g->outputs())
      if (v == from) v = to;
  values_.erase(from);
  if (to && to->graph()) values_.insert(to);
}

bool is_used(const ir::Value* v, const OuterOutputs& outer) {
  return !v->uses().empty() || v->is_graph_output() || outer.contains(v);
}

bool needs_identity(const ir::Value* from, const ir::Value* to) {
  if (!from->is_graph_output()) return false;
  return !(to->producer() && to->graph() == from->graph() && !to->is_graph_output());
}

ir::Node* replace_value(ir::Value* from, ir::Value* to, OuterOutputs& outer) {
  // The two are the same value: a type declared for one holds for the other
  // (and a graph output's declared type must not get lost).
  if (!to->type() && from->type()) to->set_type(from->type());
  outer.replace(from, to);
  if (!from->is_graph_output()) {
    from->replace_all_uses_with(to);
    return nullptr;
  }
  ir::Graph* g = from->graph();
  if (!needs_identity(from, to)) {
    from->replace_all_uses_with(to);
    if (!from->name().empty()) {  // empty: replace_value_renaming moved it already
      to->set_name(from->name());
      from->set_name("");
    }
    return nullptr;
  }
  // Node readers read `to`; the output slots read an Identity that keeps
  // the output's name.
  std::vector<ir::Use> uses(from->uses().begin(), from->uses().end());
  for (const ir::Use& use : uses) use.node->set_input(static_cast<size_t>(use.index), to);
  ir::Node* identity = g->append_node("Identity", {to}, 1);
  ir::Value* out = identity->output(0);
  out->set_name(from->name());
  out->set_type(from->type() ? from->type() : to->type());
  from->set_name("");
  for (ir::Value*& v : g->outputs())
    if (v == from) v = out;
  return identity;
}

ir::Node* replace_value_renaming(ir::Value* from, ir::Value* to, OuterOutputs& outer) {
  if (to->producer() && to->graph() == from->graph() && !to->is_graph_output() &&
      !from->name().empty()) {
    std::string name = from->name();
    from->set_name("");
    to->set_name(std::move(name));
  }
  return replace_value(from, to, outer);
}

bool is_random_op(const ir::Node& node) {
  static constexpr std::array<std::string_view, 6> kRandom = {
      "RandomUniform",    "RandomNormal", "RandomUniformLike",
      "RandomNormalLike", "Bernoulli",    "Multinomial"};
  if (!is_onnx_domain(node.domain())) return false;
  return std::find(kRandom.begin(), kRandom.end(), node.op_type()) != kRandom.end();
}

std::optional<int64_t> opset_version(const ir::Model& model, const GraphSite& site,
                                     std::string_view domain) {
  auto find = [&](const ir::OpsetImports& opsets) -> std::optional<int64_t> {
    if (auto v = opsets.find(domain)) return v;
    if (domain.empty()) return opsets.find("ai.onnx");
    if (domain == "ai.onnx") return opsets.find("");
    return std::nullopt;
  };
  if (site.function)
    if (auto v = find(site.function->opset_imports)) return v;
  return find(model.opset_imports);
}

const ir::Tensor* constant_tensor(const ir::Value* v) {
  if (!v) return nullptr;
  if (const ir::Tensor* t = v->const_value()) return v->is_graph_input() ? nullptr : t;
  const ir::Node* node = v->producer();
  if (!node || node->op_type() != "Constant" || !is_onnx_domain(node->domain())) return nullptr;
  // Only the `value` form: the folder rewrites the other forms
  // (value_float, value_ints, ...) to it first.
  const ir::Attribute* value = node->attribute("value");
  if (value && !value->is_reference() && value->type == ir::AttributeType::kTensor)
    return &value->as_tensor();
  return nullptr;
}

size_t prune_value_info(ir::Model& model) {
  size_t removed = 0;
  for (const GraphSite& site : graphs_inner_first(model)) {
    removed += std::erase_if(site.graph->value_info(), [](const ir::Value* v) {
      if (v->name().empty()) return true;
      const ir::Node* producer = v->producer();
      return producer && producer->is_erased();
    });
  }
  return removed;
}

void collect_names(const ir::Graph& graph, std::unordered_set<std::string>& names) {
  for (const ir::Value* v : graph.inputs()) names.insert(v->name());
  for (const ir::Value* v : graph.initializers()) names.insert(v->name());
  for (const ir::Value* v : graph.sparse_initializers()) names.insert(v->name());
  for (const ir::Node* n : graph.nodes()) {
    for (const ir::Value* v : n->outputs())
      if (!v->name().empty()) names.insert(v->name());
    for (const ir::Graph* sub : n->subgraphs()) collect_names(*sub, names);
  }
}

std::string fresh_name(const std::string& base, std::unordered_set<std::string>& taken) {
  if (taken.insert(base).second) return base;
  for (size_t i = 1;; ++i) {
    std::string name = fmt::format("{}_{}", base, i);
    if (taken.insert(name).second) return name;
  }
}

}  // namespace onnxscript::optimizer::detail
