#pragma once
/// \file
/// Graph: the handle that graph-valued operator attributes take (If's
/// branches, Loop's and Scan's bodies). A thin wrapper over a shared
/// ir::Graph, so that later builders (`graph(...)`) can return richer handles
/// that still convert to it.

#include <cstddef>
#include <memory>

namespace onnxscript {

namespace ir {
class Graph;
}

/// A subgraph to pass as a graph attribute. Cheap to copy; copies share the graph.
class Graph {
 public:
  /// No graph.
  Graph() = default;
  /// Wraps an IR graph. The node that receives it as an attribute adopts it.
  Graph(std::shared_ptr<ir::Graph> graph) : graph_(std::move(graph)) {}  // NOLINT: converts

  /// The IR graph, or null.
  const std::shared_ptr<ir::Graph>& ir_graph() const { return graph_; }
  /// True when a graph is held.
  explicit operator bool() const { return graph_ != nullptr; }
  /// The number of outputs the graph declares (0 for no graph). Operators
  /// whose output count follows their body (If, Loop, Scan) read it.
  size_t num_outputs() const;

 private:
  std::shared_ptr<ir::Graph> graph_;
};

}  // namespace onnxscript
