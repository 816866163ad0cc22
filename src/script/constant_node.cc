#include "script/constant_node.h"

#include <algorithm>
#include <vector>

#include "onnxscript/script/op_call.h"
#include "script/node_origin.h"

namespace onnxscript::detail {

namespace {

// A constant's type follows from its tensor. Building a graph makes many
// constants of one shape (a weight per layer, a literal per operator), and
// copies of one ir::Type share their Shape, so the type of the last constant
// is kept and handed out again while shapes repeat.
const ir::Type& constant_type(const ir::Tensor& value) {
  thread_local ir::Type last;
  const std::vector<int64_t>& dims = value.shape();
  const bool same = last.elem_type == value.dtype() && last.shape &&
                    std::equal(last.shape->begin(), last.shape->end(), dims.begin(), dims.end(),
                               [](const ir::Dim& d, int64_t n) { return d.value() == n; });
  if (!same) last = ir::Type::tensor(value.dtype(), ir::Shape(dims.begin(), dims.end()));
  return last;
}

}  // namespace

ir::Value* append_constant(TraceScope& scope, ir::Tensor value,
                           const std::source_location& location, std::string_view hint) {
  ir::Node* node = scope.graph().append_node("Constant", {}, 1);
  ir::Value* out = node->output(0);
  out->set_type(constant_type(value));
  node->set_attribute(ir::Attribute::make_tensor("value", std::move(value)));
  out->set_name(scope.fresh_name(hint));
  mark_origin(*node, location);
  return out;
}

}  // namespace onnxscript::detail
