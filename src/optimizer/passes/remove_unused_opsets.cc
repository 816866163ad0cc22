// "unused-opsets": opset imports whose domain no node uses go, from the model
// and from each function. The default ONNX domain always stays: tools expect
// it, and a model without nodes still declares what it was written against.

#include <set>
#include <string>
#include <vector>

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

void collect_domains(const ir::Graph& graph, std::set<std::string>& domains) {
  for (const ir::Node* node : graph.nodes()) {
    domains.insert(detail::is_onnx_domain(node->domain()) ? "" : node->domain());
    for (const ir::Graph* sub : node->subgraphs()) collect_domains(*sub, domains);
  }
}

// Keeps the entries of `opsets` whose domain is in `used`; returns how many went.
size_t prune(ir::OpsetImports& opsets, const std::set<std::string>& used) {
  ir::OpsetImports kept;
  size_t removed = 0;
  for (const auto& [domain, version] : opsets.entries()) {
    if (detail::is_onnx_domain(domain) || used.count(domain))
      kept.append(domain, version);
    else
      ++removed;
  }
  if (removed) opsets = std::move(kept);
  return removed;
}

class RemoveUnusedOpsets final : public Pass {
 public:
  std::string_view name() const override { return "unused-opsets"; }

 protected:
  bool run_once(ir::Model& model) override {
    // The model's imports serve the main graph and, for domains a function
    // does not import itself, the functions' bodies too.
    std::set<std::string> used;
    collect_domains(model.graph(), used);
    size_t removed = 0;
    for (auto& f : model.functions()) {
      std::set<std::string> own;
      collect_domains(f->body(), own);
      for (const std::string& d : own)
        if (!f->opset_imports.find(d) && !(d.empty() && f->opset_imports.find("ai.onnx")))
          used.insert(d);
      removed += prune(f->opset_imports, own);
    }
    removed += prune(model.opset_imports, used);
    mutable_counts().opsets_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_remove_unused_opsets() { return std::make_unique<RemoveUnusedOpsets>(); }

}  // namespace onnxscript::optimizer
