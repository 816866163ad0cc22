// "unused-initializers": initializers nothing reads go, unless they are graph
// inputs (then they are defaults a caller may override).

#include <vector>

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

class RemoveUnusedInitializers final : public Pass {
 public:
  std::string_view name() const override { return "unused-initializers"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t removed = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      ir::Graph& graph = *site.graph;
      std::vector<ir::Value*> dead;
      for (ir::Value* v : graph.initializers())
        if (!v->is_graph_input() && !detail::is_used(v, outer)) dead.push_back(v);
      for (ir::Value* v : graph.sparse_initializers())
        if (!v->is_graph_input() && !detail::is_used(v, outer)) dead.push_back(v);
      for (ir::Value* v : dead) {
        graph.remove_initializer(v);
        std::erase(graph.value_info(), v);
      }
      removed += dead.size();
    }
    mutable_counts().initializers_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_remove_unused_initializers() {
  return std::make_unique<RemoveUnusedInitializers>();
}

}  // namespace onnxscript::optimizer
