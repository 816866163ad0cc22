#include "script/graph_outputs.h"

#include <algorithm>

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"
#include "script/constant_node.h"
#include "script/literal.h"
#include "script/node_origin.h"

namespace onnxscript::detail {

void fail_construct(std::string_view construct, const std::string& message,
                    const std::source_location& location) {
  throw ScriptError(fmt::format("{}: {} (at {})", construct, message, where(location)));
}

ir::Node* append_traced_node(TraceScope& scope, const std::string& op_type,
                             std::vector<ir::Value*> inputs, size_t num_outputs,
                             const std::source_location& location, std::string_view hint) {
  scope.use_default_onnx_opset(default_opset_version());
  ir::Node* node = scope.graph().append_node(op_type, std::move(inputs), num_outputs);
  for (ir::Value* out : node->outputs()) out->set_name(scope.fresh_name(hint));
  mark_origin(*node, location);
  return node;
}

ir::Value* traced_of(const Value& v, DataType dtype, TraceScope& scope, std::string_view construct,
                     std::string_view what, const std::source_location& location) {
  if (v.is_traced()) return v.ir_value();
  if (v.is_none()) return nullptr;
  Tensor t;
  if (v.is_literal()) {
    t = literal_tensor(v, dtype == DataType::kUndefined ? default_literal_type(v) : dtype);
  } else if (v.concrete().is_tensor()) {
    t = v.tensor();
  } else {
    fail_construct(construct,
                   fmt::format("{} is a concrete {}, which a graph cannot hold as a constant", what,
                               v.describe()),
                   location);
  }
  scope.use_default_onnx_opset(default_opset_version());
  return append_constant(scope, std::move(t), location);
}

void set_graph_outputs(TraceScope& scope, const std::vector<Value>& results,
                       const std::vector<DataType>& literal_types, std::string_view construct,
                       const std::source_location& location) {
  ir::Graph& g = scope.graph();
  for (size_t i = 0; i < results.size(); ++i) {
    const Value& v = results[i];
    ir::Value* out = nullptr;
    if (v.is_traced()) {
      out = v.ir_value();
      const bool produced_here =
          out->graph() == &g && out->producer() != nullptr &&
          std::find(g.outputs().begin(), g.outputs().end(), out) == g.outputs().end();
      if (!produced_here) {
        ir::Node* identity = append_traced_node(scope, "Identity", {out}, 1, location);
        identity->output(0)->set_type(out->type());
        out = identity->output(0);
      }
    } else if (v.is_none()) {
      fail_construct(construct, fmt::format("result {} is an omitted value", i), location);
    } else {
      const DataType dtype = i < literal_types.size() ? literal_types[i] : DataType::kUndefined;
      out = traced_of(v, dtype, scope, construct, fmt::format("result {}", i), location);
    }
    g.outputs().push_back(out);
  }
}

}  // namespace onnxscript::detail
