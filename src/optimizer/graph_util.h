#pragma once
// Helpers the passes share: walking every graph of a model, replacing a value
// while keeping graph outputs' names, reading constants, opset versions.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "onnxscript/ir/model.h"

namespace onnxscript::optimizer::detail {

/// One graph of a model with what a pass needs to know about where it sits.
struct GraphSite {
  ir::Graph* graph;
  /// The function whose body holds it (directly or nested), or null.
  ir::Function* function;
  /// True for the model's main graph itself.
  bool is_main;
};

/// Every graph of `model`: the main graph, function bodies, and every graph
/// nested in them, each nested graph before the graph that holds it (so a
/// pass that frees outer values by editing inner graphs sees them first).
std::vector<GraphSite> graphs_inner_first(ir::Model& model);

/// Tracks the values that graphs return from an enclosing scope (an If
/// branch that returns an outer value): ir::Value::uses() does not list
/// them, so a value may look unused while a subgraph still returns it.
class OuterOutputs {
 public:
  /// Indexes every graph of `model`.
  explicit OuterOutputs(ir::Model& model);
  /// True when some graph other than `v`'s own returns `v`.
  bool contains(const ir::Value* v) const { return values_.count(v) != 0; }
  /// Replaces `from` by `to` in the outputs of the graphs that return it
  /// from an outer scope.
  void replace(const ir::Value* from, ir::Value* to);

 private:
  std::vector<ir::Graph*> graphs_;  // graphs with outer values among their outputs
  std::unordered_set<const ir::Value*> values_;
};

/// True when something reads `v`: a node (or a nested graph's node), its
/// graph's outputs, or a nested graph's outputs.
bool is_used(const ir::Value* v, const OuterOutputs& outer);

/// Makes every reader of `from` read `to` instead, keeping graph outputs'
/// names: when `from` is an output of its graph, `to` takes its name if `to`
/// is a node output of the same graph and not itself a graph output;
/// otherwise `Identity(to)` under `from`'s name is appended to the graph.
/// Afterwards `from` is unused (its producer can be erased). Returns the
/// Identity node it inserted, or null.
ir::Node* replace_value(ir::Value* from, ir::Value* to, OuterOutputs& outer);

/// replace_value for a `to` just created to stand for `from` (an inlined
/// body's result, say): `to` takes `from`'s name when it is a node output of
/// the same graph that is not a graph output, so names in the graph stay
/// those of the original.
ir::Node* replace_value_renaming(ir::Value* from, ir::Value* to, OuterOutputs& outer);

/// True when replace_value(from, to) would have to insert an Identity.
bool needs_identity(const ir::Value* from, const ir::Value* to);

/// True for operators whose results are random: never fold or merge them.
bool is_random_op(const ir::Node& node);

/// The imported version of `domain` ("" and "ai.onnx" are one) for a node of
/// `site`: the function's imports first, then the model's.
std::optional<int64_t> opset_version(const ir::Model& model, const GraphSite& site,
                                     std::string_view domain);

/// True for the default ONNX domain ("" or "ai.onnx").
inline bool is_onnx_domain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// The tensor `v` holds when it is a constant: an initializer that is not a
/// graph input (a caller could override that), or the output of a Constant
/// node given as a `value` tensor (the folder rewrites the other forms to
/// it). Null otherwise.
const ir::Tensor* constant_tensor(const ir::Value* v);

/// Drops value_info entries of values the passes removed (outputs of erased
/// nodes, values that gave their name away), in every graph of `model`;
/// returns how many went. Passes that remove initializers drop theirs.
size_t prune_value_info(ir::Model& model);

/// Every value name used in `graph` and the graphs nested in it.
void collect_names(const ir::Graph& graph, std::unordered_set<std::string>& names);

/// A name not in `taken` (which it joins): `base`, else `base_1`, `base_2`...
std::string fresh_name(const std::string& base, std::unordered_set<std::string>& taken);

}  // namespace onnxscript::optimizer::detail
