// "dce": nodes whose outputs nothing reads are removed, innermost graphs
// first, each graph from its last node back, so a dead chain goes in one run.

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

class DeadCodeElimination final : public Pass {
 public:
  std::string_view name() const override { return "dce"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t removed = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      ir::Graph& graph = *site.graph;
      for (ir::Node* node = graph.last_node(); node;) {
        ir::Node* prev = node->prev();
        bool used = false;
        for (const ir::Value* out : node->outputs()) used |= detail::is_used(out, outer);
        if (!used) {
          graph.erase(node);
          ++removed;
        }
        node = prev;
      }
    }
    mutable_counts().nodes_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_dead_code_elimination() {
  return std::make_unique<DeadCodeElimination>();
}

}  // namespace onnxscript::optimizer
