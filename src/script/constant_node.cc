#include "script/constant_node.h"

#include <algorithm>
#include <vector>

#include "onnxscript/script/op_call.h"

namespace onnxscript::detail {

namespace {

// A constant's type follows from its tensor. Building a graph makes many
// constants of one shape (a weight per layer, a literal per operator), and
// copies of one ir::Type share their Shape, so the type of the last constant
// is kept and handed out again while shapes repeat.
const ir::Type& constant_type(const ir::Tensor& value) {
  struct Last {
    ir::DataType dtype = ir::DataType::kUndefined;
    std::vector<int64_t> dims;
    ir::Type type;
  };
  thread_local Last last;
  if (last.dtype != value.dtype() ||
      !std::equal(last.dims.begin(), last.dims.end(), value.shape().begin(), value.shape().end())) {
    last.dtype = value.dtype();
    last.dims = value.shape();
    last.type =
        ir::Type::tensor(value.dtype(), ir::Shape(value.shape().begin(), value.shape().end()));
  }
  return last.type;
}

}  // namespace

ir::Value* append_constant(TraceScope& scope, ir::Tensor value,
                           const std::source_location& location, std::string_view hint) {
  ir::Node* node = scope.graph().append_node("Constant", {}, 1);
  ir::Value* out = node->output(0);
  out->set_type(constant_type(value));
  node->set_attribute(ir::Attribute::make_tensor("value", std::move(value)));
  out->set_name(scope.fresh_name(hint));
  node->origin = location;
  if (trace_options().record_source_locations)
    node->metadata_props.emplace_back("onnxscript.source", where(location));
  return out;
}

}  // namespace onnxscript::detail
