// "inline": calls of model-local functions become copies of the functions'
// bodies. The copy's attribute references take the call's attributes (or
// the function's defaults; an attribute neither gives is left out, as the
// Session does), and its values get names not used elsewhere in the graph.
// Calls are inlined where they are in the main graph and its subgraphs;
// calls inside function bodies follow once their caller is inlined.

#include <string>
#include <unordered_set>
#include <vector>

#include "onnxscript/ir/clone.h"
#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

// Resolves references to the called function's attributes in `node` and in
// the graphs nested in it.
void resolve_references(ir::Node& node, const ir::Node& call, const ir::Function& fn) {
  std::vector<ir::Attribute> resolved;
  std::vector<std::string> dropped;
  for (const ir::Attribute& a : node.attributes()) {
    if (!a.is_reference()) continue;
    const ir::Attribute* given = call.attribute(a.ref_attr_name);
    if (!given)
      for (const ir::Attribute& d : fn.attribute_defaults)
        if (d.name == a.ref_attr_name && d.type != ir::AttributeType::kUndefined &&
            !std::holds_alternative<std::monostate>(d.value))
          given = &d;
    if (!given) {
      dropped.push_back(a.name);
      continue;
    }
    // The call's attribute may itself refer to its own caller's attribute:
    // then the copy refers to it too.
    ir::Attribute copy = *given;
    copy.name = a.name;
    resolved.push_back(std::move(copy));
  }
  for (const std::string& name : dropped) node.remove_attribute(name);
  for (ir::Attribute& a : resolved) node.set_attribute(std::move(a));
  for (ir::Graph* sub : node.subgraphs())
    for (ir::Node* inner : sub->nodes()) resolve_references(*inner, call, fn);
}

// True when every domain the body imports is imported by `model` at the same
// version, or not at all (then the model gains it).
bool compatible_opsets(const ir::Model& model, const ir::Function& fn) {
  for (const auto& [domain, version] : fn.opset_imports.entries()) {
    const std::string d = detail::is_onnx_domain(domain) ? "" : domain;
    std::optional<int64_t> mine = model.opset_imports.find(d);
    if (!mine && d.empty()) mine = model.opset_imports.find("ai.onnx");
    if (mine && *mine != version) return false;
  }
  return true;
}

// True when a used output of `call` is a body input that the call omits:
// nothing would be left to stand for it.
bool returns_omitted_input(const ir::Node& call, const ir::Graph& body,
                           const detail::OuterOutputs& outer) {
  for (size_t i = 0; i < call.outputs().size(); ++i) {
    if (!detail::is_used(call.output(i), outer)) continue;
    const auto inputs = body.inputs();
    for (size_t j = 0; j < inputs.size(); ++j)
      if (inputs[j] == body.outputs()[i] && (j >= call.inputs().size() || !call.input(j)))
        return true;
  }
  return false;
}

class FunctionInlining final : public Pass {
 public:
  explicit FunctionInlining(InlinePredicate predicate) : predicate_(std::move(predicate)) {}
  std::string_view name() const override { return "inline"; }

 protected:
  bool run_once(ir::Model& model) override {
    if (model.functions().empty()) return false;
    detail::OuterOutputs outer(model);
    std::unordered_set<std::string> names;
    detail::collect_names(model.graph(), names);
    size_t inlined = 0, added = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      if (site.function) continue;  // bodies are inlined with their caller
      for (ir::Node* node : site.graph->nodes()) {
        const ir::Function* fn =
            model.find_function(node->domain(), node->op_type(), node->overload());
        if (!fn || (predicate_ && !predicate_(*fn, *node))) continue;
        const ir::Graph& body = fn->body();
        if (!body.initializers().empty() || !body.sparse_initializers().empty() ||
            node->inputs().size() > body.inputs().size() ||
            node->outputs().size() > body.outputs().size() || !compatible_opsets(model, *fn) ||
            returns_omitted_input(*node, body, outer))
          continue;
        added += inline_call(*site.graph, *node, *fn, names, outer);
        for (const auto& [domain, version] : fn->opset_imports.entries()) {
          const std::string d = detail::is_onnx_domain(domain) ? "" : domain;
          if (!model.opset_imports.find(d) && !(d.empty() && model.opset_imports.find("ai.onnx")))
            model.opset_imports.set(d, version);
        }
        ++inlined;
      }
    }
    mutable_counts().nodes_removed += inlined;
    mutable_counts().nodes_rewritten += added;
    return inlined > 0;
  }

 private:
  // Replaces `call` by a copy of `fn`'s body; returns the nodes added.
  static size_t inline_call(ir::Graph& graph, ir::Node& call, const ir::Function& fn,
                            std::unordered_set<std::string>& names, detail::OuterOutputs& outer) {
    const ir::Graph& body = fn.body();
    ir::ValueMap map;
    for (size_t i = 0; i < body.inputs().size(); ++i)
      map[body.inputs()[i]] = i < call.inputs().size() ? call.input(i) : nullptr;
    const std::string prefix = call.name().empty() ? fn.name : call.name();
    auto rename = [&](const std::string& name) {
      return detail::fresh_name(prefix + "_" + name, names);
    };
    size_t added = 0;
    std::unordered_set<const ir::Value*> renamed;
    for (const ir::Node* inner : body.nodes()) {
      ir::Node* copy = ir::clone_node(*inner, graph, &call, map, rename);
      if (!copy->name().empty()) copy->set_name(prefix + "_" + copy->name());
      resolve_references(*copy, call, fn);
      ++added;
    }
    for (size_t i = 0; i < call.outputs().size(); ++i) {
      ir::Value* out = call.output(i);
      if (out->name().empty() || !detail::is_used(out, outer)) continue;
      const ir::Value* result = body.outputs()[i];
      auto it = map.find(result);
      ir::Value* replacement = it == map.end() ? const_cast<ir::Value*>(result) : it->second;
      if (!replacement) continue;  // an omitted input returned as it is
      // A value the copy computed takes the call output's name (once); a
      // body input returned as it is stays the caller's value.
      const bool computed = result->producer() && renamed.insert(replacement).second;
      if (computed ? detail::replace_value_renaming(out, replacement, outer)
                   : detail::replace_value(out, replacement, outer))
        ++added;
    }
    for (ir::Value* out : call.outputs()) out->set_name("");
    graph.erase(&call);
    return added;
  }

  InlinePredicate predicate_;
};

}  // namespace

std::unique_ptr<Pass> make_function_inlining(InlinePredicate predicate) {
  return std::make_unique<FunctionInlining>(std::move(predicate));
}

}  // namespace onnxscript::optimizer
