#include "script/constant_node.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "onnxscript/script/op_call.h"
#include "script/node_origin.h"

namespace onnxscript::detail {

// A constant's type follows from its tensor. Building a graph makes many
// constants of one shape (a weight per layer, a literal per operator), and
// copies of one ir::Type share their Shape, so the type of the last constant
// is kept and handed out again while shapes repeat.
const ir::Type& tensor_value_type(const ir::Tensor& value) {
  thread_local ir::Type last;
  const ir::Dims& dims = value.shape();
  const bool same = last.elem_type == value.dtype() && last.shape &&
                    std::equal(last.shape->begin(), last.shape->end(), dims.begin(), dims.end(),
                               [](const ir::Dim& d, int64_t n) { return d.value() == n; });
  if (!same) last = ir::Type::tensor(value.dtype(), ir::Shape(dims.begin(), dims.end()));
  return last;
}

ir::Value* append_constant(TraceScope& scope, ir::Tensor value,
                           const std::source_location& location, std::string_view hint) {
  ir::Node* node = scope.graph().append_node("Constant", {}, 1);
  ir::Value* out = node->output(0);
  out->set_type(tensor_value_type(value));
  node->set_attribute(ir::Attribute::make_tensor("value", std::move(value)));
  out->set_name(scope.fresh_name(hint));
  mark_origin(*node, location);
  return out;
}

void initializers_to_constant_nodes(ir::Graph& graph, std::span<const InitializerOrigin> origins) {
  if (graph.initializers().empty()) return;
  std::unordered_map<const ir::Value*, std::source_location> origin_of;
  for (const InitializerOrigin& o : origins) origin_of.emplace(o.value, o.location);
  const std::vector<ir::Value*> initializers(graph.initializers().begin(),
                                             graph.initializers().end());
  ir::Node* const first = graph.first_node();
  for (ir::Value* weight : initializers) {
    ir::Node* node = first ? graph.insert_node_before(first, "Constant", {}, 1)
                           : graph.append_node("Constant", {}, 1);
    node->set_attribute(ir::Attribute::make_tensor("value", *weight->const_value()));
    ir::Value* out = node->output(0);
    out->set_type(weight->type());
    weight->replace_all_uses_with(out);
    graph.remove_initializer(weight);
    // The name moves to the Constant's output; the old value stays behind,
    // detached and unnamed.
    out->set_name(weight->name());
    weight->set_name({});
    if (auto found = origin_of.find(weight); found != origin_of.end())
      mark_origin(*node, found->second);
  }
}

}  // namespace onnxscript::detail
