#pragma once
// Constant nodes for the tensors a trace captures: literals, concrete
// tensors passed to operators, and the constants control flow needs.

#include <source_location>
#include <string_view>

#include "onnxscript/ir/graph.h"
#include "onnxscript/script/trace.h"

namespace onnxscript::detail {

/// Appends a Constant node holding `value` to the innermost trace's graph and
/// returns its output, typed from the tensor (no inference needed) and named
/// from `hint`. Records `location` as the node's origin, and in its metadata
/// when the trace options ask for it. Leaves the opset imports alone.
ir::Value* append_constant(TraceScope& scope, ir::Tensor value,
                           const std::source_location& location, std::string_view hint = "const");

}  // namespace onnxscript::detail
