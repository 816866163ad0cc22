#include "onnxscript/script/initializer.h"

#include <utility>

#include <fmt/format.h>

#include "onnxscript/script/op_call.h"
#include "onnxscript/script/trace.h"
#include "onnxscript/support/error.h"
#include "script/constant_node.h"

namespace onnxscript {

Value initializer(const Tensor& tensor, std::string name, std::source_location location) {
  if (!tensor.defined()) {
    throw ScriptError(fmt::format("initializer '{}': the tensor is undefined (at {})", name,
                                  detail::where(location)));
  }
  TraceScope* scope = TraceScope::current();
  if (scope == nullptr) return Value(tensor);
  if (scope->nesting() == TraceScope::Nesting::kSubgraph) {
    ir::Value* out = detail::append_constant(*scope, tensor, location, "init");
    if (!name.empty()) out->set_name(std::move(name));
    return Value::traced(out);
  }
  ir::Value* weight = scope->graph().add_initializer(
      name.empty() ? scope->fresh_name("init") : std::move(name), tensor);
  weight->set_type(detail::tensor_value_type(tensor));
  if (auto* origins = scope->initializer_origins()) origins->push_back({weight, location});
  return Value::traced(weight);
}

}  // namespace onnxscript
