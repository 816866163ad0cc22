// "constant-if": an If whose condition is a constant runs one branch only;
// that branch's nodes replace the If in its graph. The branch's value names
// are unique across the model already (ONNX requires it), and the other
// branch goes with the If, so the copies keep their names.

#include <unordered_set>
#include <vector>

#include "onnxscript/ir/clone.h"
#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

// The condition's value when it is a constant holding one bool.
std::optional<bool> constant_condition(const ir::Value* v) {
  const ir::Tensor* t = detail::constant_tensor(v);
  if (!t || t->numel() != 1 || t->dtype() != ir::DataType::kBool) return std::nullopt;
  return t->data<bool>()[0];
}

class ConstantIf final : public Pass {
 public:
  std::string_view name() const override { return "constant-if"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t rewritten = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      for (ir::Node* node : site.graph->nodes()) {
        if (!detail::is_onnx_domain(node->domain()) || node->op_type() != "If") continue;
        if (model.find_function(node->domain(), node->op_type(), node->overload())) continue;
        if (node->inputs().empty()) continue;
        const std::optional<bool> cond = constant_condition(node->input(0));
        if (!cond) continue;
        const ir::Attribute* branch = node->attribute(*cond ? "then_branch" : "else_branch");
        if (!branch || branch->is_reference() || branch->type != ir::AttributeType::kGraph ||
            !branch->as_graph())
          continue;
        const ir::Graph& body = *branch->as_graph();
        if (!body.inputs().empty() || !body.sparse_initializers().empty() ||
            body.outputs().size() != node->outputs().size())
          continue;
        inline_branch(*site.graph, *node, body, outer);
        ++rewritten;
      }
    }
    mutable_counts().nodes_rewritten += rewritten;
    return rewritten > 0;
  }

 private:
  static void inline_branch(ir::Graph& graph, ir::Node& node, const ir::Graph& body,
                            detail::OuterOutputs& outer) {
    ir::ValueMap map;
    auto keep = [](const std::string& name) { return name; };
    // A branch's initializers become Constant nodes: the If may sit in a
    // function body, which cannot hold initializers.
    for (ir::Value* init : body.initializers()) {
      ir::Node* constant = graph.insert_node_before(&node, "Constant", {}, 1);
      constant->set_attribute(ir::Attribute::make_tensor("value", *init->const_value()));
      constant->output(0)->set_name(init->name());
      ir::copy_value_info(*init, *constant->output(0));
      map[init] = constant->output(0);
    }
    for (const ir::Node* inner : body.nodes()) ir::clone_node(*inner, graph, &node, map, keep);
    // The branch's nodes are copied; the If (and both branches) go.
    std::unordered_set<const ir::Value*> renamed;
    for (size_t i = 0; i < body.outputs().size(); ++i) {
      ir::Value* out = body.outputs()[i];
      ir::Value* old = node.output(i);
      if (!out || !detail::is_used(old, outer)) continue;
      auto it = map.find(out);
      if (it == map.end()) {
        detail::replace_value(old, out, outer);  // an outer value, returned as it is
      } else if (renamed.insert(it->second).second) {
        detail::replace_value_renaming(old, it->second, outer);  // the If's name lives on
      } else {
        detail::replace_value(old, it->second, outer);
      }
    }
    for (ir::Value* out : node.outputs()) out->set_name("");
    graph.erase(&node);
  }
};

}  // namespace

std::unique_ptr<Pass> make_constant_if() { return std::make_unique<ConstantIf>(); }

}  // namespace onnxscript::optimizer
