#pragma once
/// \file
/// Copying graphs, nodes and functions, and finding the values a graph reads
/// from enclosing scopes. Shared by the eDSL (which copies detached graphs into
/// every trace that uses them), the Session (which binds a subgraph's
/// outer-scope references when it plans) and the optimizer (which inlines
/// function bodies).

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "onnxscript/ir/graph.h"
#include "onnxscript/ir/model.h"

namespace onnxscript::ir {

/// Original value -> its copy. Values missing from the map are outside the
/// copied graph (outer-scope references) and are used as they are.
using ValueMap = std::unordered_map<const Value*, Value*>;
/// Gives a copied value its name, from the original's name.
using Renamer = std::function<std::string(const std::string&)>;

/// Copies the type, doc string, metadata and unknown fields of `from` to `to`.
void copy_value_info(const Value& from, Value& to);

/// Copies `attribute`; a graph value (or graphs) is copied through
/// clone_graph, so that the copy can belong to another node. References to
/// function attributes are kept as they are.
Attribute clone_attribute(const Attribute& attribute, ValueMap& map, const Renamer& rename);

/// Copies `src` into the empty graph `dst`: inputs, initializers, nodes,
/// value_info, outputs and annotations. Values of `src` (and of its
/// subgraphs) are renamed through `rename` and recorded in `map`; references
/// to values outside `src` stay as they are unless `map` already maps them.
void clone_graph_into(const Graph& src, Graph& dst, ValueMap& map, const Renamer& rename);

/// A new graph holding a copy of `src` (see clone_graph_into).
std::shared_ptr<Graph> clone_graph(const Graph& src, ValueMap& map, const Renamer& rename);

/// Copies node `src` (its attributes, subgraphs included, its fields and its
/// outputs' names and types) into `dst` just before `position` (at the end
/// when `position` is null). Inputs are looked up in `map` (kept when
/// absent); outputs are renamed through `rename` and recorded in `map`.
Node* clone_node(const Node& src, Graph& dst, Node* position, ValueMap& map, const Renamer& rename);

/// A copy of `fn`, names kept.
std::unique_ptr<Function> clone_function(const Function& fn);

/// A copy of `model`, names kept. Tensors (initializers, tensor attributes)
/// are handles: the copy shares their data with the original.
Model clone_model(const Model& model);

/// Values a graph reads (from its nodes, nested subgraphs and outputs) that it
/// does not define: its outer-scope references, in order of first use.
/// Results are cached per graph, so keep one instance per pass over a
/// graph that is not being changed.
class FreeValues {
 public:
  /// The outer-scope references of `graph` (and of the graphs nested in it).
  const std::vector<const Value*>& of(const Graph& graph);

 private:
  std::unordered_map<const Graph*, std::vector<const Value*>> cache_;
};

}  // namespace onnxscript::ir
