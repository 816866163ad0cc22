// "unused-functions": model-local functions that the main graph does not
// call, directly or through other functions, go.

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "onnxscript/optimizer/passes.h"

namespace onnxscript::optimizer {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // domain, name, overload

class RemoveUnusedFunctions final : public Pass {
 public:
  std::string_view name() const override { return "unused-functions"; }

 protected:
  bool run_once(ir::Model& model) override {
    if (model.functions().empty()) return false;
    std::set<const ir::Function*> reached;
    std::vector<const ir::Function*> work;
    // Calls in `graph` and its subgraphs of functions not reached yet.
    auto visit = [&](const ir::Graph& graph, auto&& self) -> void {
      for (const ir::Node* node : graph.nodes()) {
        if (const ir::Function* f =
                model.find_function(node->domain(), node->op_type(), node->overload())) {
          if (reached.insert(f).second) work.push_back(f);
        }
        for (const ir::Graph* sub : node->subgraphs()) self(*sub, self);
      }
    };
    visit(model.graph(), visit);
    while (!work.empty()) {
      const ir::Function* f = work.back();
      work.pop_back();
      visit(f->body(), visit);
    }
    auto& functions = model.functions();
    const size_t before = functions.size();
    std::erase_if(functions, [&](const std::unique_ptr<ir::Function>& f) {
      return reached.count(f.get()) == 0;
    });
    const size_t removed = before - functions.size();
    mutable_counts().functions_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_remove_unused_functions() {
  return std::make_unique<RemoveUnusedFunctions>();
}

}  // namespace onnxscript::optimizer
