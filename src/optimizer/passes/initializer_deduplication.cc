// "dedup-initializers": initializers of one graph with the same element type,
// shape and contents become one, the first. Graph inputs keep their own
// initializers (a caller may override either).

#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "onnxscript/optimizer/passes.h"
#include "optimizer/graph_util.h"

namespace onnxscript::optimizer {
namespace {

size_t content_hash(const ir::Tensor& t) {
  size_t h = std::hash<int>()(static_cast<int>(t.dtype()));
  for (int64_t d : t.shape()) h = h * 31 + std::hash<int64_t>()(d);
  if (t.dtype() != ir::DataType::kString) {
    const auto* p = static_cast<const char*>(t.raw_data());
    if (p) h ^= std::hash<std::string_view>()(std::string_view(p, t.nbytes())) << 1;
  }
  return h;
}

class InitializerDeduplication final : public Pass {
 public:
  std::string_view name() const override { return "dedup-initializers"; }

 protected:
  bool run_once(ir::Model& model) override {
    detail::OuterOutputs outer(model);
    size_t removed = 0;
    for (const detail::GraphSite& site : detail::graphs_inner_first(model)) {
      ir::Graph& graph = *site.graph;
      std::unordered_map<size_t, std::vector<ir::Value*>> kept;
      std::vector<ir::Value*> duplicates;
      const std::vector<ir::Value*> initializers(graph.initializers().begin(),
                                                 graph.initializers().end());
      for (ir::Value* v : initializers) {
        if (v->is_graph_input()) continue;
        std::vector<ir::Value*>& bucket = kept[content_hash(*v->const_value())];
        ir::Value* first = nullptr;
        for (ir::Value* k : bucket)
          if (k->const_value()->same_contents(*v->const_value())) first = k;
        if (!first) {
          bucket.push_back(v);
          continue;
        }
        // An initializer that is a graph output would come back as an
        // Identity of the first: nothing gained.
        if (v->is_graph_output()) continue;
        detail::replace_value(v, first, outer);
        graph.remove_initializer(v);
        std::erase(graph.value_info(), v);
        ++removed;
      }
    }
    mutable_counts().initializers_removed += removed;
    return removed > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_initializer_deduplication() {
  return std::make_unique<InitializerDeduplication>();
}

}  // namespace onnxscript::optimizer
